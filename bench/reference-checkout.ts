/** The yardstick's checkout: the service's SQL and crypto for it, without a framework. */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, request } from 'node:http';
import type { Pool } from 'pg';
import 'reflect-metadata';
import { leaseSessionParams } from '../src/checkout/checkout-session.params';
import { newDataKey, wrap } from '../src/personal-data/personal-data.crypto';
import type { PaymentOptions, Result } from './reference-payments';
import { recordView, sealEvent, sealPersonal } from './reference-sealing';

/** The checkout bound to the yardstick's pool, settings, master key and email hash. */
export function checkoutHandler(
  pool: Pool,
  o: PaymentOptions,
  master: Buffer,
  emailHash: (email: string | null | undefined) => Promise<string | null>,
) {
  const { processor, stripeKey, siteUrl } = o;

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
    // The service's createPending: a data key made and wrapped, stored on its own first; the
    // intent and the `subscription.created` body sealed under it, the email's keyed hash.
    const id = randomUUID();
    const now = new Date();
    const key = { owner: id, key: newDataKey() };
    await pool.query('INSERT INTO data_keys (id, wrapped, created_at) VALUES ($1, $2, $3)', [
      id,
      wrap(master, key.key),
      now,
    ]);
    const personal = { name: dto.name ?? null, email: dto.email ?? null };
    const record = {
      id,
      status: 'pending',
      created_at: now,
      paid_at: null,
      canceled_at: null,
      coupon: null,
      checkout_session_id: null,
      processor_subscription_id: null,
      processor_customer_id: null,
      erased_at: null,
    };
    sealEvent(key, 'subscription.created', recordView(record, personal), now);
    await pool.query(
      'INSERT INTO subscriptions (id, product, status, personal, email_hash, coupon, source, lease_cents, ' +
        "monthly_cents, currency, created_at, updated_at, status_changed_at) VALUES ($1, $2, 'pending', $3, " +
        '$4, $5, $6, $7, $8, $9, $10, $10, $10) RETURNING 1',
      [
        id,
        'lease',
        sealPersonal(key, personal),
        await emailHash(dto.email),
        null,
        dto.source ?? 'plans',
        24900,
        5000,
        'usd',
        now,
      ],
    );
    const session = await openSession(id, dto.email);
    await pool.query(
      'UPDATE subscriptions SET checkout_session_id = $1, updated_at = $2 WHERE id = $3',
      [session.id, new Date(), id],
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

  return checkout;
}
