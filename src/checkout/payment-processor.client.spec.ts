import Stripe from 'stripe';
import { AppConfig } from '../config/app-config';
import { PaymentProcessorClient, signedAt } from './payment-processor.client';

const SECRET = 'whsec_unit_0123456789';
const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'x', data: { object: {} } });
const header = (timestamp: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp });
const now = () => Math.floor(Date.now() / 1000);

describe('PaymentProcessorClient.verifyEvent', () => {
  const client = new PaymentProcessorClient(
    AppConfig.fromEnv({ NODE_ENV: 'test', STRIPE_WEBHOOK_SECRET: SECRET }, 'test'),
  );

  it('accepts a fresh signature', () => {
    expect(client.verifyEvent(Buffer.from(payload), header(now()), [SECRET])?.id).toBe('evt_1');
  });

  // Found by the reliability suite: the SDK checks only the age, so a future timestamp passed.
  it('refuses a timestamp more than the tolerance in the future', () => {
    expect(client.verifyEvent(Buffer.from(payload), header(now() + 600), [SECRET])).toBeUndefined();
  });

  it('reads the t= of a header', () => {
    expect(signedAt('t=1700000000,v1=abc')).toBe(1700000000);
    expect(signedAt('v1=abc')).toBe(0);
  });
});
