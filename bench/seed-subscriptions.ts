/**
 * The subscriptions of the seeded tables: pending ones the webhook pays and paid ones the detail
 * reads (bench/seed.ts writes them with the rest).
 */
import { newDataKey, seal, wrap } from '../src/personal-data/personal-data.crypto';
import type { Queryable, TableSize } from './seed';
import { BENCH_MASTER_KEY } from './service-env';

/** Paid subscriptions with sealed personal fields and a history entry: what the detail reads. */
export const DETAIL_SUBSCRIPTIONS = 1_000;

/** What a paid record holds once the processor reported it (the webhook's fields). */
const PERSONAL = {
  name: 'Dana Carer',
  email: 'dana@example.com',
  customerEmail: 'dana@example.com',
  customerName: 'Dana Carer',
  customerPhone: '+15555550100',
  recipientName: 'Robin Carer',
  livingSituation: 'Lives alone',
  primaryConcern: 'Memory and cognitive support',
  shippingAddress: '1 Main St, Springfield, IL 62701, US',
  recipientZip: '62701',
  shippingName: 'Robin Carer',
};

/** The n-th seeded pending subscription's id (a valid v4-shaped UUID, so the handler accepts it). */
export function subscriptionId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** The n-th seeded paid subscription the detail route reads (apart from the pending ones). */
export function detailSubscriptionId(n: number): string {
  return `00000000-0000-4000-9000-${n.toString(16).padStart(12, '0')}`;
}

/**
 * Pending subscriptions (the webhook pays them) and paid ones with sealed personal fields (the
 * detail reads them), each with a data key wrapped by the bench's master key, as the service
 * makes them. For the seeding's cost one data key, wrapped once, serves every row: keys are bound
 * to their owner only through the sealed values' associated data (the subscription id), so the
 * service's work per request is the same as with a key of its own per row.
 */
export async function seedSubscriptions(db: Queryable, size: TableSize): Promise<void> {
  const dataKey = newDataKey();
  const wrapped = wrap(BENCH_MASTER_KEY, dataKey);
  await db.query(
    `WITH s AS (
       INSERT INTO subscriptions (id, product, status, source, lease_cents, monthly_cents, currency,
         created_at, updated_at, status_changed_at)
       SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
              'lease', 'pending', 'plans', 24900, 5000, 'usd',
              now() - i * interval '1 second', now() - i * interval '1 second',
              now() - i * interval '1 second'
       FROM generate_series(0, $1 - 1) AS i
       RETURNING id, created_at)
     INSERT INTO data_keys (id, wrapped, created_at) SELECT id, $2, created_at FROM s`,
    [size.subscriptions, wrapped],
  );
  const ids = Array.from({ length: DETAIL_SUBSCRIPTIONS }, (_, n) => detailSubscriptionId(n));
  const sealed = ids.map((id) => seal(dataKey, id, JSON.stringify(PERSONAL)));
  await db.query(
    `WITH s AS (
       INSERT INTO subscriptions (id, product, status, source, lease_cents, monthly_cents, currency,
         personal, processor_subscription_id, processor_customer_id, paid_at,
         created_at, updated_at, status_changed_at)
       SELECT d.id, 'lease', 'paid', 'plans', 24900, 5000, 'usd', d.personal,
              'sub_detail_' || d.n, 'cus_detail_' || d.n, now() - interval '1 day',
              now() - interval '2 days', now() - interval '1 day', now() - interval '1 day'
       FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS d(id, personal, n)
       RETURNING id, created_at),
     k AS (INSERT INTO data_keys (id, wrapped, created_at) SELECT id, $3, created_at FROM s)
     INSERT INTO subscription_history (subscription_id, event_id, type, effect, from_status,
       to_status, event_created_at, received_at, source)
     SELECT id, 'evt_detail_' || id, 'checkout.session.completed', 'paid', 'pending', 'paid',
            now() - interval '1 day', now() - interval '1 day', 'webhook'
     FROM s`,
    [ids, sealed, wrapped],
  );
}
