import fc from 'fast-check';
import { SubscriptionRecord } from '../../src/subscription/subscription.entity';
import { createPendingSubscription } from '../support/factories';
import {
  checkoutCompletedEvent,
  otherEvent,
  sign,
  WEBHOOK_SECRET,
} from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { deliver, WEBHOOK_ENV, webhookEventsOf } from '../support/webhook';
import { recordOf, subscriptionsOf } from '../support/checkout';
import { recordFigure } from './support/figures';

const now = () => Math.floor(Date.now() / 1000);

describe('webhook: replays, duplicates and order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: WEBHOOK_ENV });
  });
  afterAll(() => t.close());

  const applied = async (eventId: string) =>
    webhookEventsOf(t).countBy({ id: eventId, outcome: 'applied' });

  it('refuses every forged or replayed delivery and changes nothing', async () => {
    const sub = await createPendingSubscription(t.app);
    const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
    const altered = payload
      .replace('"payment_status":"paid"', '"payment_status":"paid" ')
      .replace('Dana', 'Mallory');
    const matrix: [string, string, string | undefined][] = [
      ['no signature', payload, undefined],
      ['empty signature', payload, ''],
      ['wrong secret', payload, sign(payload, 'whsec_wrong')],
      ['garbage header', payload, 't=abc,v1=zzz'],
      ['v0 scheme only', payload, sign(payload).replace('v1=', 'v0=')],
      ['stale (301 s old)', payload, sign(payload, WEBHOOK_SECRET, now() - 301)],
      ['a day old', payload, sign(payload, WEBHOOK_SECRET, now() - 86400)],
      ['future (10 min ahead)', payload, sign(payload, WEBHOOK_SECRET, now() + 600)],
      ['altered body, original signature', altered, sign(payload)],
      ['signature of another event', payload, sign(JSON.stringify(otherEvent('x')))],
      ['second secret that is not configured', payload, sign(payload, 'whsec_test_third_secret')],
    ];
    const answers: string[] = [];
    for (const [name, body, signature] of matrix) {
      const res = await deliver(t, body, signature);
      answers.push(`${name}: ${res.status}`);
    }
    const after = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    const accepted = answers.filter((a) => !a.endsWith(': 400'));
    // The rotated (second configured) secret is accepted, as the control.
    const control = await deliver(
      t,
      payload,
      sign(payload, WEBHOOK_ENV.STRIPE_WEBHOOK_SECRET.split(',')[1]),
    );
    recordFigure(
      'Webhook',
      'forged/replayed deliveries (no sig, wrong, stale, future, altered, unknown secret, ...)',
      matrix.length,
      '>= 6',
    );
    recordFigure('Webhook', 'forged/replayed deliveries accepted', accepted.length, '0');
    expect(accepted).toEqual([]);
    expect(after.status).toBe('pending');
    expect(control.status).toBe(200);
    expect((await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).status).toBe('paid');
  });

  it('applies one event delivered 100 times in a row, and 100 times at once, exactly once', async () => {
    const results: Record<string, number> = {};
    for (const mode of ['sequential', 'concurrent'] as const) {
      const sub = await createPendingSubscription(t.app);
      const event = checkoutCompletedEvent(sub.id);
      const payload = JSON.stringify(event);
      const send = () => deliver(t, payload, sign(payload));
      const statuses: number[] = [];
      if (mode === 'sequential') {
        for (let i = 0; i < 100; i++) statuses.push((await send()).status);
      } else {
        statuses.push(
          ...(await Promise.all(Array.from({ length: 100 }, send))).map((r) => r.status),
        );
      }
      const record = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
      results[mode] = await applied(event.id as string);
      recordFigure(
        'Webhook',
        `same event x100 ${mode}: transitions / non-200 answers`,
        `${results[mode]} / ${statuses.filter((s) => s !== 200).length}`,
        '1 / 0',
      );
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(results[mode]).toBe(1);
      expect(record.status).toBe('paid');
    }
  });

  it('ends in a state that depends only on the set of events, whatever their order', async () => {
    type Kind = 'completed' | 'unpaid' | 'expired' | 'other';
    let runs = 0;
    let mismatches = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Kind>('completed', 'unpaid', 'expired', 'other'), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 1 }),
        async (drawn, picks, seedSalt) => {
          // A session either completes or expires, never both: a set holding both contradicts
          // itself, and the first to arrive would win.
          const kinds = drawn.includes('completed') ? drawn.filter((k) => k !== 'expired') : drawn;
          // Two subscriptions receive the same set of events (with duplicates) in two orders.
          const subs = [
            await createPendingSubscription(t.app),
            await createPendingSubscription(t.app),
          ];
          const finals: string[] = [];
          for (const [n, sub] of subs.entries()) {
            const events = kinds.map((k) =>
              k === 'completed'
                ? checkoutCompletedEvent(sub.id)
                : k === 'unpaid'
                  ? checkoutCompletedEvent(sub.id, { payment_status: 'unpaid' })
                  : k === 'expired'
                    ? {
                        ...checkoutCompletedEvent(sub.id, {
                          status: 'expired',
                          payment_status: 'unpaid',
                        }),
                        type: 'checkout.session.expired',
                      }
                    : otherEvent('invoice.paid'),
            );
            // The set plus duplicates chosen by `picks`, in an order that differs between the two.
            const sequence = [...events, ...picks.map((p) => events[p % events.length])];
            const ordered = n === 0 ? sequence : shuffle(sequence, picks.length + seedSalt + 1);
            for (const e of ordered) {
              const payload = JSON.stringify(e);
              expect((await deliver(t, payload, sign(payload))).status).toBe(200);
            }
            finals.push(stateOf(await recordOf(t, sub.id)));
          }
          runs++;
          if (finals[0] !== finals[1]) mismatches++;
          const expected = kinds.includes('completed')
            ? 'paid'
            : kinds.includes('expired')
              ? 'expired'
              : 'pending';
          return finals[0] === finals[1] && finals[0].startsWith(expected);
        },
      ),
      { numRuns: 40 },
    );
    recordFigure(
      'Webhook',
      'random orders of completed/unpaid/expired/other + duplicates',
      `${runs} runs, ${mismatches} order-dependent`,
      '0 order-dependent',
    );
    expect(mismatches).toBe(0);
  });
});

function stateOf(s: SubscriptionRecord): string {
  return [s.status, s.customerEmail, s.recipientName, s.processorSubscriptionId].join('|');
}

/** A deterministic shuffle (reversal plus rotation), so the two orders differ. */
function shuffle<T>(items: T[], k: number): T[] {
  const r = [...items].reverse();
  const n = k % r.length;
  return [...r.slice(n), ...r.slice(0, n)];
}
