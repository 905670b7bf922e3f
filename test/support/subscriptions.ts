import { cliActor } from '../../src/audit/audit-event.types';
import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { Organization } from '../../src/org/organization.entity';
import { SubscriptionService } from '../../src/subscription/subscription.service';
import { SubscriptionDetailDto } from '../../src/subscription/subscription-view.dto';
import type { SubscriptionRecord } from '../../src/subscription/subscription.entity';
import { createPendingSubscription, unique } from './factories';
import { ApiShape, invoiceEvent, sessionEvent, sign, subscriptionEvent } from './processor-events';
import type { TestApp } from './test-app';
import { deliver, WEBHOOK_ENV } from './webhook';

/**
 * On the embedded database an app has one connection (docs/embedded-database.md): these specs run
 * their apps that way, so a query outside a transaction's manager would hang, not pass.
 */
export const ONE_CONNECTION_ON_EMBEDDED: Record<string, string> =
  process.env.E2E_DATABASE_KIND === 'pglite' ? { DATABASE_POOL_SIZE: '1' } : {};

export const LIFECYCLE_ENV = { ...WEBHOOK_ENV, ...ONE_CONNECTION_ON_EMBEDDED };

/** Seconds since 1970, an hour ago: events of a test are created at base + offsets. */
export const baseSeconds = () => Math.floor(Date.now() / 1000) - 3600;

export interface TestRecord {
  sub: SubscriptionRecord;
  processorSubscriptionId: string;
  sessionId: string;
}

/**
 * A pending record made two hours ago by the app's Clock: before the events of a test (an hour
 * ago, baseSeconds), as a checkout comes before its payment.
 */
export async function newRecord(
  t: TestApp,
  fields: Partial<SubscriptionRecord> = {},
): Promise<TestRecord> {
  // Shaped as the processor makes them (the success page's status route checks the shape).
  const sessionId = `cs_test_${randomBytes(12).toString('hex')}`;
  const createdAt = new Date(t.app.get(Clock).now().getTime() - 2 * 3600 * 1000);
  const sub = await createPendingSubscription(t.app, {
    checkoutSessionId: sessionId,
    createdAt,
    ...fields,
  });
  return { sub, sessionId, processorSubscriptionId: unique('sub_test') };
}

/** Every event of the transition table for one record, in one API shape, created when asked. */
export function eventsFor(r: TestRecord, shape: ApiShape = 'current') {
  const ref = { subscriptionId: r.sub.id, processorSubscriptionId: r.processorSubscriptionId };
  const session = { id: r.sessionId, subscription: r.processorSubscriptionId };
  return {
    completed: (created: number, fields: Record<string, unknown> = {}) =>
      sessionEvent(
        'checkout.session.completed',
        r.sub.id,
        { ...session, ...fields },
        { created, shape },
      ),
    asyncSucceeded: (created: number) =>
      sessionEvent('checkout.session.async_payment_succeeded', r.sub.id, session, {
        created,
        shape,
      }),
    asyncFailed: (created: number) =>
      sessionEvent('checkout.session.async_payment_failed', r.sub.id, session, { created, shape }),
    expired: (created: number) =>
      sessionEvent('checkout.session.expired', r.sub.id, { id: r.sessionId }, { created, shape }),
    invoicePaid: (created: number, withMetadata = true) =>
      invoiceEvent(
        'invoice.paid',
        { ...ref, subscriptionId: withMetadata ? r.sub.id : null },
        { created, shape },
      ),
    invoiceFailed: (created: number, withMetadata = true) =>
      invoiceEvent(
        'invoice.payment_failed',
        { ...ref, subscriptionId: withMetadata ? r.sub.id : null },
        { created, shape },
      ),
    updated: (created: number, status: string) =>
      subscriptionEvent('customer.subscription.updated', { ...ref, status }, { created, shape }),
    deleted: (created: number) =>
      subscriptionEvent(
        'customer.subscription.deleted',
        { ...ref, status: 'canceled' },
        { created, shape },
      ),
  };
}

/** Delivers a signed event as the processor does; the service acknowledges everything it verifies. */
export async function send(t: TestApp, event: Record<string, unknown>): Promise<void> {
  const payload = JSON.stringify(event);
  await deliver(t, payload, sign(payload)).expect(200, { received: true });
}

/** The record as the operators' API shows it, with its history (read as the CLI would). */
export const detailOf = async (t: TestApp, id: string) =>
  SubscriptionDetailDto.withHistory(await t.app.get(SubscriptionService).detail(id, cliActor()));

/** Status, times and history without what differs between two records (ids, arrival times). */
export async function timelineOf(t: TestApp, id: string) {
  const d = await detailOf(t, id);
  return {
    status: d.status,
    paid_at: d.paid_at,
    canceled_at: d.canceled_at,
    history: d.history.map((h) => [h.type, h.from, h.to, h.event_created_at, h.source]),
  };
}

/** An id for FULFILMENT_ORG_ID, chosen before the app boots; `createFulfilmentOrg` makes the org. */
export const newFulfilmentOrgId = (): string => randomUUID();

/** The organization FULFILMENT_ORG_ID names (the app's config is fixed before the org exists). */
export async function createFulfilmentOrg(app: INestApplicationContext, id: string): Promise<void> {
  await app.get(DataSource).getRepository(Organization).upsert({ id, name: 'Fulfilment' }, ['id']);
}
