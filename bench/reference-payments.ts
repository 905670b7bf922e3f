/** The yardstick's webhook and checkout: the service's SQL and crypto for them, without a framework. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import type Stripe from 'stripe';
import { paidDetails } from '../src/subscription/lifecycle/checkout-session.details';
import { checkoutHandler } from './reference-checkout';
import {
  emailHasher,
  keyOf,
  masterKey,
  openPersonal,
  recordView,
  RecordRow,
  sealEvent,
  sealPersonal,
} from './reference-sealing';

export interface PaymentOptions {
  webhookSecret: string;
  processor: URL;
  stripeKey: string;
  siteUrl: string;
}

export type Result = Promise<[number, unknown]>;

/** What the reference reads of a checkout session itself; the rest is the service's paidDetails. */
interface CheckoutSession {
  id: string;
  metadata?: { subscription_id?: string };
  collected_information?: { shipping_details?: { name?: string } };
}

function verifyEvent(
  webhookSecret: string,
  body: Buffer,
  header: string,
): { id: string; type: string; created: number; data: { object: CheckoutSession } } | undefined {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return undefined;
  const expected = createHmac('sha256', webhookSecret)
    .update(`${parts.t}.${body.toString('utf8')}`)
    .digest('hex');
  const given = Buffer.from(parts.v1, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(expected, 'utf8'), given))
    return undefined;
  return JSON.parse(body.toString('utf8')) as {
    id: string;
    type: string;
    created: number;
    data: { object: CheckoutSession };
  };
}

/** Handlers bound to the yardstick's pool and settings. */
export function paymentHandlers(pool: Pool, o: PaymentOptions) {
  const master = masterKey();
  const emailHash = emailHasher(pool, master);

  async function webhook(req: IncomingMessage, body: Buffer): Result {
    const event = verifyEvent(o.webhookSecret, body, String(req.headers['stripe-signature'] ?? ''));
    if (!event) return [400, { code: 'invalid_signature' }];
    const client = await pool.connect();
    try {
      await client.query('START TRANSACTION');
      const ins = await client.query(
        "INSERT INTO processed_webhook_events (id, type, outcome, received_at) VALUES ($1, $2, 'received', now()) " +
          'ON CONFLICT DO NOTHING RETURNING id',
        [event.id, event.type.slice(0, 100)],
      );
      if (ins.rows.length > 0) {
        const s = event.data.object;
        // The service's own reading of the session's fields (checkout-session.details.ts).
        const { processorSubscriptionId, processorCustomerId, ...details } = paidDetails(
          s as unknown as Stripe.Checkout.Session,
        );
        // The service's statements: the record locked, its history read, the session id checked,
        // the history entry written, the record filled and moved.
        const subId = s.metadata?.subscription_id;
        const sub = await client.query<RecordRow>(
          'SELECT * FROM subscriptions WHERE id = $1 LIMIT 1 FOR UPDATE',
          [subId],
        );
        const row = sub.rows[0];
        let outcome = 'unknown_subscription';
        if (row) {
          // The record's data key, unwrapped, and its sealed fields opened, as the service does.
          const key = await keyOf(client, master, row.id);
          const before = openPersonal(key, row.personal);
          await client.query(
            'SELECT * FROM subscription_history WHERE subscription_id = $1 ORDER BY event_created_at ASC, id ASC',
            [row.id],
          );
          const taken = await client.query(
            'SELECT 1 FROM subscriptions WHERE checkout_session_id = $1 LIMIT 1',
            [s.id],
          );
          const moved = row.status === 'pending';
          const inserted = await client.query(
            'INSERT INTO subscription_history (subscription_id, event_id, type, effect, from_status, to_status, ' +
              'event_created_at, received_at, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ' +
              'ON CONFLICT DO NOTHING RETURNING id',
            [
              row.id,
              event.id,
              event.type,
              'paid',
              row.status,
              moved ? 'paid' : row.status,
              new Date(event.created * 1000),
              new Date(),
              'webhook',
            ],
          );
          outcome =
            inserted.rows.length === 0 ? 'already_recorded' : moved ? 'applied' : 'recorded';
          const now = new Date();
          const shippingName = s.collected_information?.shipping_details?.name ?? null;
          const personal = { ...before, ...details, shippingName };
          const paid = {
            ...row,
            status: moved ? 'paid' : row.status,
            paid_at: now,
            processor_subscription_id: processorSubscriptionId,
            processor_customer_id: processorCustomerId,
            checkout_session_id: taken.rows.length ? row.checkout_session_id : s.id,
          };
          // The fields and the `subscription.paid` event's body sealed under the record's key.
          // The outbox's event insert stays the service's own (docs/benchmarks.md): not sent here.
          if (key) sealEvent(key, 'subscription.paid', recordView(paid, personal), now);
          await client.query(
            'UPDATE subscriptions SET personal = $1, customer_email_hash = $2, processor_subscription_id = $3, ' +
              'processor_customer_id = $4, checkout_session_id = $5, status = $6, status_changed_at = $7, ' +
              'paid_at = $8, updated_at = $9 WHERE id = $10',
            [
              key ? sealPersonal(key, personal) : null,
              await emailHash(personal.customerEmail),
              paid.processor_subscription_id,
              paid.processor_customer_id,
              paid.checkout_session_id,
              paid.status,
              moved ? now : null,
              now,
              now,
              row.id,
            ],
          );
        }
        await client.query('UPDATE processed_webhook_events SET outcome = $2 WHERE id = $1', [
          event.id,
          outcome,
        ]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
    return [200, { received: true }];
  }

  return { webhook, checkout: checkoutHandler(pool, o, master, emailHash) };
}
