import fc from 'fast-check';
import {
  Effect,
  EFFECTS,
  FINAL_STATUSES,
  mayReplace,
  replay,
  planTimeline,
  statusSetAt,
  TimelineEntry,
  transition,
} from './subscription-status.machine';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../subscription.entity';

const at = (s: number) => new Date(s * 1000);

describe('transition (docs/checkout.md, one row each)', () => {
  it.each<[Effect, SubscriptionStatus, SubscriptionStatus]>([
    ['checkout_paid', 'pending', 'paid'],
    ['checkout_unpaid', 'pending', 'pending'],
    ['checkout_payment_failed', 'pending', 'payment_failed'],
    ['checkout_expired', 'pending', 'expired'],
    ['renewal_failed', 'paid', 'past_due'],
    ['renewal_paid', 'past_due', 'paid'],
    ['ended', 'pending', 'canceled'],
    ['ended', 'paid', 'canceled'],
    ['ended', 'past_due', 'canceled'],
    ['renewal_failed', 'pending', 'pending'],
    ['renewal_paid', 'pending', 'pending'],
  ])('%s: %s -> %s', (effect, from, to) => {
    expect(transition(from, effect)).toBe(to);
  });

  it('moves nothing out of a final status, and nothing back to pending', () => {
    for (const status of SUBSCRIPTION_STATUSES) {
      for (const effect of EFFECTS) {
        const to = transition(status, effect);
        if (FINAL_STATUSES.has(status)) expect(to).toBe(status);
        if (status !== 'pending') expect(to).not.toBe('pending');
      }
    }
  });
});

describe('replay', () => {
  it('gives each entry its from/to, paid_at and canceled_at in processor time', () => {
    const r = replay([
      { effect: 'checkout_paid', eventCreatedAt: at(10) },
      { effect: 'renewal_failed', eventCreatedAt: at(20) },
      { effect: 'renewal_paid', eventCreatedAt: at(30) },
      { effect: 'ended', eventCreatedAt: at(40) },
      { effect: 'renewal_paid', eventCreatedAt: at(50) },
    ]);
    expect(r.status).toBe('canceled');
    expect(r.steps).toEqual([
      { from: 'pending', to: 'paid' },
      { from: 'paid', to: 'past_due' },
      { from: 'past_due', to: 'paid' },
      { from: 'paid', to: 'canceled' },
      { from: 'canceled', to: 'canceled' },
    ]);
    expect(r.paidAt).toEqual(at(10));
    expect(r.canceledAt).toEqual(at(40));
  });

  it('gives expired_at the time of the event that expired the checkout, none to a paid one', () => {
    const expired = replay([
      { effect: 'checkout_unpaid', eventCreatedAt: at(5) },
      { effect: 'checkout_expired', eventCreatedAt: at(15) },
      { effect: 'checkout_expired', eventCreatedAt: at(25) },
    ]);
    expect(expired).toMatchObject({ status: 'expired', expiredAt: at(15), paidAt: null });
    expect(replay([{ effect: 'checkout_paid', eventCreatedAt: at(10) }]).expiredAt).toBeNull();
  });

  it('lets a late renewal failure land in its place, not after a later payment', () => {
    // Arrival: paid(10), renewal paid(30), renewal failed(20): applying in arrival order would
    // leave past_due although the customer paid after the failure.
    const r = replay([
      { effect: 'checkout_paid', eventCreatedAt: at(10) },
      { effect: 'renewal_failed', eventCreatedAt: at(20) },
      { effect: 'renewal_paid', eventCreatedAt: at(30) },
    ]);
    expect(r.status).toBe('paid');
  });
});

describe('mayReplace (the order rules against what was stored)', () => {
  it('keeps a final status', () => {
    for (const stored of FINAL_STATUSES) {
      expect(mayReplace(stored, at(10), 'paid', at(99))).toBe(false);
      expect(mayReplace(stored, at(10), stored, at(99))).toBe(true);
    }
  });

  it('never goes back to pending', () => {
    expect(mayReplace('paid', at(10), 'pending', at(99))).toBe(false);
  });

  it('lets only an event not older than the one that set the status change it', () => {
    expect(mayReplace('paid', at(10), 'canceled', at(9))).toBe(false);
    expect(mayReplace('paid', at(10), 'canceled', at(10))).toBe(true);
    expect(mayReplace('pending', undefined, 'paid', at(1))).toBe(true);
  });

  it('reads when the status was set from the stored timeline', () => {
    expect(
      statusSetAt([
        { effect: 'checkout_paid', eventCreatedAt: at(10), from: 'pending', to: 'paid' },
        { effect: 'renewal_paid', eventCreatedAt: at(20), from: 'paid', to: 'paid' },
      ]),
    ).toEqual(at(10));
    expect(statusSetAt([])).toBeUndefined();
  });
});

describe('planTimeline, events arriving in any order', () => {
  type Arriving = { effect: Effect; createdAt: Date };

  /** Stores each plan as the service does, and returns the final status and timeline. */
  function deliver(events: Arriving[]) {
    let status: SubscriptionStatus = 'pending';
    const stored: TimelineEntry[] = [];
    for (const e of events) {
      const plan = planTimeline(status, stored, e);
      for (const [i, step] of plan.rewrites) Object.assign(stored[i], step);
      let pos = stored.findIndex((s) => s.eventCreatedAt > e.createdAt);
      if (pos < 0) pos = stored.length;
      stored.splice(pos, 0, { effect: plan.effect, eventCreatedAt: e.createdAt, ...plan.entry });
      status = plan.status;
    }
    return { status, stored };
  }

  /** A subscription's real life: a checkout, renewals that fail and are paid, maybe an end. */
  const lifecycle = fc
    .tuple(fc.array(fc.boolean(), { maxLength: 10 }), fc.boolean())
    .map(([cycles, ends]) => {
      const effects: Effect[] = ['checkout_unpaid', 'checkout_paid', 'renewal_paid'];
      for (const failed of cycles) effects.push(failed ? 'renewal_failed' : 'renewal_paid');
      if (ends) effects.push('ended');
      return effects.map((effect, i) => ({ effect, createdAt: at(100 + i * 10) }));
    });

  it('ends with the same status and history as when they arrive in order', () => {
    fc.assert(
      fc.property(
        lifecycle,
        fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
        (events, picks) => {
          const shuffled = [...events];
          for (let i = shuffled.length - 1; i > 0; i--) {
            const j = picks[i % picks.length] % (i + 1);
            [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
          }
          expect(deliver(shuffled)).toEqual(deliver(events));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a late contradictory event as one that moved nothing', () => {
    // Expired at 20, then a completion created at 10 arrives: expired is final.
    const { status, stored } = deliver([
      { effect: 'checkout_expired', createdAt: at(20) },
      { effect: 'checkout_paid', createdAt: at(10) },
    ]);
    expect(status).toBe('expired');
    expect(stored.map((s) => [s.from, s.to])).toEqual([
      ['expired', 'expired'],
      ['pending', 'expired'],
    ]);
  });

  it('never lets a refused event move the record in a later replay', () => {
    // Paid at 10; a deletion created at 5 is refused; a renewal at 30 must not revive it.
    const { status } = deliver([
      { effect: 'checkout_paid', createdAt: at(10) },
      { effect: 'ended', createdAt: at(5) },
      { effect: 'renewal_paid', createdAt: at(30) },
    ]);
    expect(status).toBe('paid');
  });
});
