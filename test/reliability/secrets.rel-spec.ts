import type { Response } from 'supertest';
import { subjectFor } from '../support/auth';
import { processorEnv } from '../support/checkout';
import { createDevice, createUser } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { sharedIdentityProvider } from '../support/identity-provider';
import { checkoutCompletedEvent, sign } from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { deliver } from '../support/webhook';
import { createPendingSubscription } from '../support/factories';
import { sessionCookie } from '../support/auth';
import { recordFigure } from './support/figures';
import { capturedLogs } from '../support/captured-logs';
import { HIGH_LIMITS } from './support/rel';

const PROCESSOR_KEY = 'sk_test_CANARYprocessorKEY7f3a9c2e1b';
const WEBHOOK_SECRET = 'whsec_CANARYwebhookSECRET5d8e2a7c4f';
const DEVICE_SECRET = 'CANARY-device-token-secret-0123456789abcdef';

describe('secrets never reach a log line or a response where they do not belong', () => {
  const { lines, options } = capturedLogs();
  let fake: FakeProcessor;
  let t: TestApp;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({
      ...options,
      env: {
        ...processorEnv(fake.url, {
          STRIPE_SECRET_KEY: PROCESSOR_KEY,
          STRIPE_TIMEOUT_MS: '500',
          STRIPE_MAX_NETWORK_RETRIES: '1',
        }),
        ...HIGH_LIMITS,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        DEVICE_TOKEN_SECRET: DEVICE_SECRET,
        LOG_LEVEL: 'trace',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('finds no canary in any captured log line or response', async () => {
    const idp = await sharedIdentityProvider();
    const user = await createUser(t.app, { role: 'admin' });
    const idToken = await idp.token({ claims: { email: user.email, sub: subjectFor(user.email) } });
    const badIdToken = await idp.token({
      claims: { email: user.email, sub: subjectFor(user.email), aud: 'other' },
    });
    /** Responses, and where a canary may legitimately appear in each (the credential it issues). */
    const responses: { res: Response; issues?: string }[] = [];
    const keep = (res: Response, issues?: string) => {
      responses.push({ res, issues });
      return res;
    };
    const http = () => t.http();

    keep(await http().post('/api/auth/login').send({ id_token: badIdToken }));
    const login = keep(await http().post('/api/auth/login').send({ id_token: idToken }), 'cookie');
    const cookie = sessionCookie(t, login.headers['set-cookie'])!;
    const cookieValue = cookie.split('=')[1];
    keep(await http().get('/api/auth/me').set('Cookie', cookie));
    keep(
      await http()
        .get('/api/v1/devices?cursor=' + encodeURIComponent(cookieValue))
        .set('Cookie', cookie),
    );
    keep(await http().get(`/api/v1/org`).set('Cookie', `${cookie}; other=${idToken}`));
    const device = await createDevice(t.app, user.orgId);
    const tokenRes = keep(
      await http()
        .post('/auth/device')
        .send({ device_id: device.deviceId, model: device.model, provider: device.provider }),
      'device',
    );
    const deviceToken = tokenRes.body.access_token as string;
    keep(await http().get('/api/device/v1/self').set('Authorization', `Bearer ${deviceToken}`));
    keep(
      await http()
        .post('/api/device/v1/heartbeat')
        .set('Authorization', `Bearer ${deviceToken}`)
        .send({ battery_pct: 50 }),
    );
    keep(await http().get('/api/v1/devices').set('Authorization', `Bearer ${deviceToken}`));
    keep(await http().get('/api/device/v1/self').set('Cookie', cookie));
    keep(await http().get(`/api/device/v1/self?token=${deviceToken}`));
    keep(
      await http().post('/auth/device').send({ device_id: deviceToken, model: 'x', provider: 'y' }),
    );
    keep(await http().post('/api/auth/login').send({ id_token: deviceToken }));
    keep(await http().post('/api/auth/login').send({ id_token: idToken, extra: cookieValue }));
    keep(await http().post('/api/lease/checkout').send({ email: 'x@example.com' }));
    fake.reset('error500');
    keep(await http().post('/api/lease/checkout').send({ email: 'y@example.com' }));
    fake.reset('reset');
    keep(await http().post('/api/lease/checkout').send({ email: 'z@example.com' }));
    fake.reset('ok');
    const sub = await createPendingSubscription(t.app);
    const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
    keep(await deliver(t, payload, sign(payload, WEBHOOK_SECRET)));
    keep(await deliver(t, payload, sign(payload, 'whsec_wrong')));
    keep(await deliver(t, payload, `t=1,v1=${WEBHOOK_SECRET}`));
    const refresh = keep(await http().post('/api/auth/refresh').set('Cookie', cookie), 'cookie');
    const cookie2 = sessionCookie(t, refresh.headers['set-cookie'])!;
    keep(await http().get('/api/auth/me').set('Cookie', cookie));
    keep(await http().post('/api/auth/logout').set('Cookie', cookie2));

    const canaries: Record<string, string> = {
      'ID token': idToken,
      'ID token signature': idToken.split('.')[2],
      cookie: cookieValue,
      'refreshed cookie': cookie2.split('=')[1],
      'device token': deviceToken,
      'device token signature': deviceToken.split('.')[2],
      'processor key': PROCESSOR_KEY,
      'webhook secret': WEBHOOK_SECRET,
      'device token secret': DEVICE_SECRET,
    };
    const logged = lines.join('');
    const hits: string[] = [];
    for (const [name, value] of Object.entries(canaries)) {
      if (logged.includes(value)) hits.push(`log: ${name}`);
      for (const { res, issues } of responses) {
        const headers = { ...res.headers };
        if (issues === 'cookie') delete headers['set-cookie'];
        const body = issues === 'device' ? res.text.replace(deviceToken, '') : res.text;
        if (body.includes(value) || JSON.stringify(headers).includes(value))
          hits.push(`${res.status} response: ${name}`);
      }
    }
    // The capture works: it saw the requests.
    expect(lines.length).toBeGreaterThanOrEqual(responses.length);
    expect(logged).toContain('/api/payment-processor/webhook');
    recordFigure(
      'Secrets',
      'canaries (ID token, cookie, device token, processor key, webhook secret, device-token secret)',
      Object.keys(canaries).length,
      'all searched',
    );
    recordFigure(
      'Secrets',
      'log lines / responses searched',
      `${lines.length} / ${responses.length}`,
      'every one',
    );
    recordFigure('Secrets', 'canary hits', hits.length, '0');
    expect(hits).toEqual([]);
  });
});
