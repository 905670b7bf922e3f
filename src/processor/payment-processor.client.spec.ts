import Stripe from 'stripe';
import { AppConfig } from '../config/app-config';
import { PaymentProcessorClient, signedAt } from './payment-processor.client';

const SECRET = 'whsec_unit_0123456789';
const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'x', data: { object: {} } });
const header = (timestamp: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp });
/** When the event is received; signatures are made relative to it. */
const RECEIVED = new Date('2026-11-23T12:00:00Z');
const now = () => Math.floor(RECEIVED.getTime() / 1000);
const at = RECEIVED;

describe('PaymentProcessorClient.verifySignature', () => {
  const client = new PaymentProcessorClient(
    AppConfig.fromEnv({ NODE_ENV: 'test', STRIPE_WEBHOOK_SECRET: SECRET }, 'test'),
  );

  it('judges the age by the time it is given, not the wall clock', () => {
    const signed = header(now() - 200);
    expect(client.verifySignature(Buffer.from(payload), signed, [SECRET], at)).toBe(true);
    const later = new Date(RECEIVED.getTime() + 200_000);
    expect(client.verifySignature(Buffer.from(payload), signed, [SECRET], later)).toBe(false);
  });

  it('accepts a fresh signature', () => {
    expect(client.verifySignature(Buffer.from(payload), header(now()), [SECRET], at)).toBe(true);
  });

  // Found by the reliability suite: the SDK checks only the age, so a future timestamp passed.
  it('refuses a timestamp more than the tolerance in the future', () => {
    expect(client.verifySignature(Buffer.from(payload), header(now() + 600), [SECRET], at)).toBe(
      false,
    );
  });

  it('reads the one t= of a header, and nothing from a header with none or several', () => {
    expect(signedAt('t=1700000000,v1=abc')).toBe(1700000000);
    expect(signedAt('v1=abc')).toBeUndefined();
    expect(signedAt('t=1700000000,t=1700000001,v1=abc')).toBeUndefined();
    expect(signedAt('t=17e8,v1=abc')).toBeUndefined();
  });

  // The future-timestamp guard read the first t=, the SDK's check another: refuse the ambiguity.
  it('refuses a header with several t= values, even when one of them verifies', () => {
    const good = header(now());
    const [t, v1] = good.split(',');
    expect(
      client.verifySignature(Buffer.from(payload), `${t},t=${now() + 600},${v1}`, [SECRET], at),
    ).toBe(false);
    expect(
      client.verifySignature(Buffer.from(payload), `t=${now() + 600},${t},${v1}`, [SECRET], at),
    ).toBe(false);
  });
});
