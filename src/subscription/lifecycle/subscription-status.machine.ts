import type { SubscriptionStatus } from '../subscription.entity';

/**
 * What an event means for a subscription's status, whatever its type or API shape
 * (subscription-events.ts reads each type into one of these).
 */
export const EFFECTS = [
  'checkout_paid',
  'checkout_unpaid',
  'checkout_payment_failed',
  'checkout_expired',
  'renewal_failed',
  'renewal_paid',
  'ended',
  'none',
] as const;
export type Effect = (typeof EFFECTS)[number];

/** The transition table of docs/checkout.md: from which status each effect moves, and where to. */
const TRANSITIONS: Record<Effect, Partial<Record<SubscriptionStatus, SubscriptionStatus>>> = {
  checkout_paid: { pending: 'paid' },
  checkout_unpaid: {},
  checkout_payment_failed: { pending: 'payment_failed' },
  checkout_expired: { pending: 'expired' },
  renewal_failed: { paid: 'past_due' },
  renewal_paid: { past_due: 'paid' },
  ended: { pending: 'canceled', paid: 'canceled', past_due: 'canceled' },
  none: {},
};

/** No transition leaves these (none lists them as a source), and none leads back to `pending`. */
export const FINAL_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  'canceled',
  'expired',
  'payment_failed',
]);

export const isEffect = (v: string): v is Effect => (EFFECTS as readonly string[]).includes(v);

export function transition(status: SubscriptionStatus, effect: Effect): SubscriptionStatus {
  return TRANSITIONS[effect][status] ?? status;
}

export interface TimelineEntry {
  effect: Effect;
  eventCreatedAt: Date;
  from: SubscriptionStatus;
  to: SubscriptionStatus;
}

export interface Replayed {
  status: SubscriptionStatus;
  /** from/to of each entry, in the order given. */
  steps: { from: SubscriptionStatus; to: SubscriptionStatus }[];
  paidAt: Date | null;
  canceledAt: Date | null;
  expiredAt: Date | null;
}

/**
 * The record's state after its events, applied from `pending` in the order given: the events'
 * `created`, ties in arrival order. The same set of events gives the same state and history
 * whatever order the processor delivered them in.
 */
export function replay(entries: readonly Pick<TimelineEntry, 'effect' | 'eventCreatedAt'>[]) {
  let status: SubscriptionStatus = 'pending';
  let paidAt: Date | null = null;
  let canceledAt: Date | null = null;
  let expiredAt: Date | null = null;
  const steps = entries.map(({ effect, eventCreatedAt }) => {
    const from = status;
    status = transition(from, effect);
    if (from === 'pending' && status === 'paid') paidAt ??= eventCreatedAt;
    if (status === 'canceled' && from !== 'canceled') canceledAt = eventCreatedAt;
    if (status === 'expired' && from !== 'expired') expiredAt = eventCreatedAt;
    return { from, to: status };
  });
  return { status, steps, paidAt, canceledAt, expiredAt } satisfies Replayed;
}

/** The `created` of the entry that set the current status; undefined while it never moved. */
export function statusSetAt(entries: readonly TimelineEntry[]): Date | undefined {
  let at: Date | undefined;
  for (const e of entries) if (e.from !== e.to) at = e.eventCreatedAt;
  return at;
}

/**
 * Whether a replay that includes a late event may replace the stored status. The contract's
 * order rules hold against what was stored, not only within the replay: a final status stays,
 * nothing goes back to `pending`, and an event older than the one that set the status does not
 * change it. (Only contradictory event sets reach these, e.g. a session both paid and expired.)
 */
export function mayReplace(
  stored: SubscriptionStatus,
  storedSetAt: Date | undefined,
  next: SubscriptionStatus,
  eventCreatedAt: Date,
): boolean {
  if (next === stored) return true;
  if (FINAL_STATUSES.has(stored) || next === 'pending') return false;
  return storedSetAt === undefined || eventCreatedAt.getTime() >= storedSetAt.getTime();
}

type Step = { from: SubscriptionStatus; to: SubscriptionStatus };

export interface TimelinePlan {
  status: SubscriptionStatus;
  /** The effect to store with the event: `none` when the order rules refused it. */
  effect: Effect;
  /** from/to of the added event. */
  entry: Step;
  /** Stored entries (by index) whose from/to the replay changes. */
  rewrites: [number, Step][];
  paidAt: Date | null;
  canceledAt: Date | null;
  expiredAt: Date | null;
}

/**
 * Puts an event where its `created` says it happened (after stored events created in the same
 * second: they arrived first) and replays the record's timeline. When the order rules forbid the
 * result, the event is kept as one that moved nothing, now and in every later replay, and the
 * stored timeline stays as it is.
 */
export function planTimeline(
  status: SubscriptionStatus,
  stored: readonly TimelineEntry[],
  added: Pick<TimelineEntry, 'effect'> & { createdAt: Date },
): TimelinePlan {
  const at = added.createdAt.getTime();
  let pos = stored.findIndex((e) => e.eventCreatedAt.getTime() > at);
  if (pos < 0) pos = stored.length;
  const event = { effect: added.effect, eventCreatedAt: added.createdAt };
  const replayed = replay([...stored.slice(0, pos), event, ...stored.slice(pos)]);
  if (!mayReplace(status, statusSetAt(stored), replayed.status, added.createdAt)) {
    const still = { from: status, to: status };
    const none = { paidAt: null, canceledAt: null, expiredAt: null };
    return { status, effect: 'none', entry: still, rewrites: [], ...none };
  }
  const steps = [...replayed.steps];
  const [entry] = steps.splice(pos, 1);
  const rewrites = steps
    .map((step, i): [number, Step] => [i, step])
    .filter(([i, step]) => stored[i].from !== step.from || stored[i].to !== step.to);
  return { ...replayed, effect: added.effect, entry, rewrites };
}
