/**
 * What each measured route is sent: the load generator's requests (bench/load.ts). Apart from
 * load.ts, which runs its worker when loaded.
 */
import { createHmac } from 'node:crypto';
import type autocannon from 'autocannon';
import { checkoutCompletedEvent, WEBHOOK_SECRET } from '../test/support/processor-events';
import type { LoadInput } from './load';
import { DEVICE_MODEL, DEVICE_PROVIDER, deviceId } from './seed';
import { DETAIL_SUBSCRIPTIONS, detailSubscriptionId, subscriptionId } from './seed-subscriptions';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** The requests of a window (one per route; `next` gives the webhook its next subscription). */
export function requestsFor(input: LoadInput, next: () => number): autocannon.Request[] {
  const cookie = { cookie: `${input.cookieName}=${input.sessionToken}` };
  switch (input.endpoint) {
    case 'health':
      return [{ method: 'GET', path: '/health' }];
    case 'me':
      return [{ method: 'GET', path: '/api/auth/me', headers: cookie }];
    case 'devices':
      return [{ method: 'GET', path: '/api/v1/devices?limit=50', headers: cookie }];
    case 'devicesDeep':
      return [
        {
          method: 'GET',
          path: `/api/v1/devices?limit=50&cursor=${input.deepCursor}`,
          headers: cookie,
        },
      ];
    case 'deviceToken':
      return [
        {
          method: 'POST',
          path: '/auth/device',
          headers: JSON_HEADERS,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              device_id: deviceId(Math.floor(Math.random() * input.orgDevices)),
              model: DEVICE_MODEL,
              provider: DEVICE_PROVIDER,
            }),
          }),
        },
      ];
    case 'heartbeat':
      // What dev:fleet's devices send (dev-fleet/fleet-requests.ts), under a random device's token.
      return [
        {
          method: 'POST',
          path: '/api/device/v1/heartbeat',
          body: JSON.stringify({ battery_pct: 87, firmware_version: '2.4.1' }),
          setupRequest: (req) => ({
            ...req,
            headers: {
              ...JSON_HEADERS,
              authorization: `Bearer ${input.deviceTokens[Math.floor(Math.random() * input.deviceTokens.length)]}`,
            },
          }),
        },
      ];
    case 'webhook':
      return [
        {
          method: 'POST',
          path: '/api/payment-processor/webhook',
          setupRequest: (req) => {
            const body = JSON.stringify(checkoutCompletedEvent(subscriptionId(next())));
            const t = Math.floor(Date.now() / 1000);
            const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex');
            return {
              ...req,
              body,
              headers: { ...JSON_HEADERS, 'stripe-signature': `t=${t},v1=${v1}` },
            };
          },
        },
      ];
    case 'checkout':
      return [
        {
          method: 'POST',
          path: '/api/lease/checkout',
          headers: JSON_HEADERS,
          body: JSON.stringify({ name: 'Dana Carer', email: 'dana@example.com', source: 'bench' }),
        },
      ];
    case 'subscriptionDetail':
      // A paid record with sealed personal fields, a random one of the seeded, as the admin.
      return [
        {
          method: 'GET',
          headers: cookie,
          setupRequest: (req) => ({
            ...req,
            path: `/api/v1/subscriptions/${detailSubscriptionId(Math.floor(Math.random() * DETAIL_SUBSCRIPTIONS))}`,
          }),
        },
      ];
  }
}
