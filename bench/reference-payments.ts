/** The yardstick's webhook and checkout: the service's SQL and crypto for them, without a framework. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, request } from 'node:http';
import type { Pool } from 'pg';
import 'reflect-metadata';
import { leaseSessionParams } from '../src/checkout/checkout-session.params';

export interface PaymentOptions {
  webhookSecret: string;
  processor: URL;
  stripeKey: string;
  siteUrl: string;
}

type Result = Promise<[number, unknown]>;

interface CheckoutSession {
  id: string;
  payment_status: string;
  metadata?: { subscription_id?: string };
  customer: string | null;
  subscription: string | null;
  customer_details?: { email: string | null; name: string | null; phone: string | null };
  collected_information?: {
    shipping_details?: { name?: string; address?: Record<string, string | null> };
  };
  custom_fields?: {
    key: string;
    text?: { value: string | null };
    dropdown?: { value: string | null };
  }[];
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
  const { processor, stripeKey, siteUrl } = o;

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
        const field = (k: string) => s.custom_fields?.find((f) => f.key === k);
        const a = s.collected_information?.shipping_details?.address;
        const address = a
          ? [
              a.line1,
              a.line2,
              a.city,
              [a.state, a.postal_code].filter(Boolean).join(' '),
              a.country,
            ]
              .filter((p) => p)
              .join(', ')
          : null;
        // The service's statements: the record locked, its history read, the session id checked,
        // the history entry written, the record filled and moved.
        const subId = s.metadata?.subscription_id;
        const sub = await client.query<{
          id: string;
          status: string;
          checkout_session_id: string | null;
        }>('SELECT * FROM subscriptions WHERE id = $1 LIMIT 1 FOR UPDATE', [subId]);
        const row = sub.rows[0];
        let outcome = 'unknown_subscription';
        if (row) {
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
          await client.query(
            'UPDATE subscriptions SET customer_email = $1, customer_name = $2, customer_phone = $3, recipient_name = $4, ' +
              'living_situation = $5, primary_concern = $6, shipping_address = $7, recipient_zip = $8, shipping_name = $9, ' +
              'processor_subscription_id = $10, processor_customer_id = $11, checkout_session_id = $12, status = $13, ' +
              'paid_at = $14, updated_at = CURRENT_TIMESTAMP WHERE id = $15',
            [
              s.customer_details?.email ?? null,
              s.customer_details?.name ?? null,
              s.customer_details?.phone ?? null,
              field('recipient_name')?.text?.value ?? null,
              field('living_situation')?.dropdown?.value ?? null,
              field('primary_concern')?.dropdown?.value ?? null,
              address,
              a?.postal_code ?? null,
              s.collected_information?.shipping_details?.name ?? null,
              s.subscription,
              s.customer,
              taken.rows.length ? row.checkout_session_id : s.id,
              moved ? 'paid' : row.status,
              new Date(),
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

  /** The processor's form encoding (`a[b][0][c]=v`), as the SDK sends it. */
  function form(value: unknown, prefix = '', out: string[] = []): string[] {
    if (value === null || value === undefined) return out;
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) form(v, prefix ? `${prefix}[${k}]` : k, out);
    } else {
      out.push(
        `${encodeURIComponent(prefix)}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`,
      );
    }
    return out;
  }

  function openSession(
    subscriptionId: string,
    email: string | undefined,
  ): Promise<{ id: string; url: string }> {
    // The service's own parameters (custom fields included), so both send the same request.
    const body = form(
      leaseSessionParams({
        subscriptionId,
        leasePriceId: 'price_lease',
        monthlyPriceId: 'price_monthly',
        siteUrl,
        email,
      }),
    ).join('&');
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: processor.hostname,
          port: processor.port,
          method: 'POST',
          path: '/v1/checkout/sessions',
          headers: {
            authorization: `Bearer ${stripeKey}`,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(body),
            'idempotency-key': `checkout-session-${subscriptionId}`,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve(
              JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; url: string },
            ),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async function checkout(_r: IncomingMessage, body: Buffer): Result {
    const dto = JSON.parse(body.toString('utf8')) as {
      name?: string;
      email?: string;
      source?: string;
    };
    const { rows } = await pool.query<{ id: string }>(
      'INSERT INTO subscriptions (id, product, status, name, email, coupon, source, lease_cents, monthly_cents, currency, ' +
        'created_at, updated_at) VALUES (DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, now(), now()) ' +
        'RETURNING id, created_at, updated_at',
      [
        'lease',
        'pending',
        dto.name ?? null,
        dto.email ?? null,
        null,
        dto.source ?? 'plans',
        24900,
        5000,
        'usd',
      ],
    );
    const id = rows[0].id;
    const session = await openSession(id, dto.email);
    await pool.query(
      'UPDATE subscriptions SET checkout_session_id = $1, updated_at = CURRENT_TIMESTAMP WHERE id IN ($2)',
      [session.id, id],
    );
    return [
      200,
      {
        ok: true,
        subscription_id: id,
        checkout_url: session.url,
        lease_cents: 24900,
        monthly_cents: 5000,
        currency: 'usd',
      },
    ];
  }

  return { webhook, checkout };
}
