import { randomUUID } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  TransactionCommitEvent,
} from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { statementRows } from '../../database/statement-rows';
import { DeliveryWake } from './delivery-wake.service';
import { OpenKey, PersonalData } from '../../personal-data/personal-data.service';
import type { DeviceEventType, SubscriptionEventType } from '../outgoing-webhook.types';
import { TEST_EVENT_TYPE } from '../outgoing-webhook.types';

/**
 * A change to report: its type and its `data` as integrators get it. `subjectId`: the
 * subscription it is about (its export and erasure find it). `sealWith`: the body carries
 * personal data, so it is stored sealed under its owner's data key (docs/privacy.md).
 */
export type NewOutgoingEvent =
  | { type: SubscriptionEventType; data: object; subjectId: string; sealWith?: OpenKey }
  | { type: DeviceEventType; orgId: string; data: object };

const WAKE_FLAG = 'outgoingWebhookWake';

/**
 * A change to store with its event, as `recordWith` takes it: the statement built once (at module
 * load, or from an entity's metadata) by `outboxStatement`, and this call's parameters.
 */
export interface OutboxChange {
  statement: OutboxStatement;
  params: unknown[];
}

/** A change with the outbox's event and deliveries around it (outboxStatement). */
export type OutboxStatement = string & { readonly __outbox: true };

/**
 * The statement for a change: one INSERT or UPDATE ending in `RETURNING 1`, parameters $1…$n
 * (`n` of them). The event and its deliveries are stored only when the change returned a row, so
 * an UPDATE that matched nothing (or an INSERT … ON CONFLICT DO NOTHING that skipped) reports
 * nothing.
 */
export function outboxStatement(change: string, n: number): OutboxStatement {
  if (!/\bRETURNING\s+1\s*$/i.test(change)) {
    throw new Error('an outbox change must end in RETURNING 1 (it guards the event)');
  }
  return outboxSql(change, n) as OutboxStatement;
}

/**
 * The event, its deliveries to the endpoints subscribed now, and the change it reports (if given),
 * as one statement: atomic by itself, so a change outside a transaction needs no BEGIN/COMMIT,
 * and one round trip inside one. `subscribed` is read once, so the event is unsettled exactly
 * when it has deliveries. The deliveries' key to the event is checked at the statement's end,
 * after every part of it has run. The event's parameters follow the change's `n`. With a change,
 * nothing but the change when it returned no row.
 */
function outboxSql(change: string | undefined, n: number): string {
  const [id, type, org, payload, at, key, subject] = [1, 2, 3, 4, 5, 6, 7].map((i) => `$${n + i}`);
  const changed = 'EXISTS (SELECT 1 FROM change)';
  const [and, where] = change === undefined ? ['', ''] : [` AND ${changed}`, ` WHERE ${changed}`];
  return `WITH ${change === undefined ? '' : `change AS (${change}),`}
  subscribed AS (SELECT id FROM webhook_endpoints
    WHERE org_id = ${org}::uuid AND enabled AND ${type}::text = ANY(event_types)${and}),
  event AS (INSERT INTO outgoing_events
    (id, type, org_id, payload, created_at, settled_at, data_key_id, subject_id)
    SELECT ${id}::uuid, ${type}::text, ${org}::uuid, ${payload}::text, ${at}::timestamptz,
      CASE WHEN EXISTS (SELECT 1 FROM subscribed) THEN NULL ELSE ${at}::timestamptz END,
      ${key}::uuid, ${subject}::uuid${where}
    RETURNING 1),
  deliveries AS (INSERT INTO webhook_deliveries
    (event_id, endpoint_id, status, attempts, next_attempt_at, manual, created_at)
    SELECT ${id}::uuid, id, 'pending', 0, ${at}::timestamptz, false, ${at}::timestamptz
    FROM subscribed RETURNING 1)
  SELECT EXISTS (SELECT 1 FROM event) AS "stored", EXISTS (SELECT 1 FROM deliveries) AS "delivered"`;
}

const RECORD_SQL = outboxSql(undefined, 0);

/**
 * Many organization events (no personal data) and their deliveries in one statement: a batch of
 * devices registered, or every device a liveness pass found quiet, costs one round trip, not one
 * per event. Each event is unsettled exactly when it has deliveries, as in outboxSql.
 */
const RECORD_MANY_SQL = `WITH ev AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[]) AS e(id, type, org_id, payload)),
  subscribed AS (SELECT ev.id AS event_id, w.id AS endpoint_id FROM ev JOIN webhook_endpoints w
    ON w.org_id = ev.org_id AND w.enabled AND ev.type = ANY(w.event_types)),
  events AS (INSERT INTO outgoing_events
    (id, type, org_id, payload, created_at, settled_at, data_key_id, subject_id)
    SELECT ev.id, ev.type, ev.org_id, ev.payload, $5::timestamptz,
      CASE WHEN EXISTS (SELECT 1 FROM subscribed s WHERE s.event_id = ev.id) THEN NULL
        ELSE $5::timestamptz END, NULL, NULL
    FROM ev RETURNING 1),
  deliveries AS (INSERT INTO webhook_deliveries
    (event_id, endpoint_id, status, attempts, next_attempt_at, manual, created_at)
    SELECT event_id, endpoint_id, 'pending', 0, $5::timestamptz, false, $5::timestamptz
    FROM subscribed RETURNING 1)
  SELECT (SELECT count(*) FROM events)::int AS "stored",
    (SELECT count(*) FROM deliveries)::int AS "delivered"`;

/** An organization's event with no personal data: what `recordMany` takes. */
export type OrgOutgoingEvent = Extract<NewOutgoingEvent, { orgId: string }>;

const INSERT_EVENT_SQL = `INSERT INTO outgoing_events (id, type, org_id, payload, created_at, settled_at)
  VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::boolean THEN NULL ELSE $5::timestamptz END)`;

const INSERT_TEST_DELIVERY_SQL = `INSERT INTO webhook_deliveries
  (event_id, endpoint_id, status, attempts, next_attempt_at, manual, created_at)
  VALUES ($1, $2, 'pending', 0, $3, false, $3)`;

// The CASE keeps the cast off sealed bodies, whatever order PostgreSQL checks the conditions in.
const PLAIN_BODIES_SQL = `SELECT id, payload, payload::jsonb -> 'data' ->> 'id' AS owner
  FROM outgoing_events WHERE data_key_id IS NULL AND type LIKE 'subscription.%'
    AND type <> 'subscription.erased'
    AND CASE WHEN payload LIKE '{%' THEN payload::jsonb -> 'data' ->> 'id' END = ANY($1::text[])
  FOR UPDATE`;
const SEAL_BODY_SQL = `UPDATE outgoing_events SET payload = $2, data_key_id = $3, subject_id = $3
  WHERE id = $1`;

/**
 * The transactional outbox: callers write the event with their own transaction's manager, or hand
 * their one-statement change to `recordWith`, so the change and its event commit together or not
 * at all. Deliveries go to the endpoints subscribed at this moment; this process's worker is woken
 * once the transaction (or the statement) commits.
 */
@Injectable()
export class EventOutbox implements OnModuleInit, EntitySubscriberInterface {
  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly wake: DeliveryWake,
    private readonly personalData: PersonalData,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    if (!this.dataSource.subscribers.includes(this)) this.dataSource.subscribers.push(this);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const data = event.queryRunner.data as Record<string, unknown>;
    if (data[WAKE_FLAG]) this.wake.notify();
  }

  /** Stores the event and its deliveries in the caller's transaction; returns the event id. */
  async record(manager: EntityManager, event: NewOutgoingEvent): Promise<string> {
    return (await this.store(manager, RECORD_SQL, [], event))!;
  }

  /**
   * Stores many organization events and their deliveries in one statement, in the caller's
   * transaction; returns how many were stored. Callers keep a batch to a few thousand.
   */
  async recordMany(manager: EntityManager, events: readonly OrgOutgoingEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const now = this.clock.now();
    const timestamp = now.toISOString();
    const ids = events.map(() => randomUUID());
    const bodies = events.map((e) => JSON.stringify({ type: e.type, timestamp, data: e.data }));
    const [row] = await statementRows<{ stored: number; delivered: number }>(
      manager,
      RECORD_MANY_SQL,
      [ids, events.map((e) => e.type), events.map((e) => e.orgId), bodies, now],
    );
    if (row.delivered > 0) this.wakeAfterCommit(manager);
    return row.stored;
  }

  /**
   * Makes `change` and stores its event and deliveries in one statement (contract section 8:
   * the change and its event commit together), so it needs no transaction of its own; returns the
   * event id, or undefined when the change returned no row and so no event was stored.
   */
  recordWith(
    manager: EntityManager,
    change: OutboxChange,
    event: NewOutgoingEvent,
  ): Promise<string | undefined> {
    return this.store(manager, change.statement, change.params, event);
  }

  private async store(
    manager: EntityManager,
    sql: string,
    before: unknown[],
    event: NewOutgoingEvent,
  ): Promise<string | undefined> {
    const orgId =
      'orgId' in event ? event.orgId : (this.config.subscriptions.fulfilmentOrgId ?? null);
    const now = this.clock.now();
    const body = JSON.stringify({
      type: event.type,
      timestamp: now.toISOString(),
      data: event.data,
    });
    const key = 'sealWith' in event ? event.sealWith : undefined;
    const payload = key ? this.personalData.seal(key, body) : body;
    const id = randomUUID();
    const [row] = await statementRows<{ stored: boolean; delivered: boolean }>(manager, sql, [
      ...before,
      id,
      event.type,
      orgId,
      payload,
      now,
      key?.owner ?? null,
      'subjectId' in event ? event.subjectId : null,
    ]);
    if (row.delivered) this.wakeAfterCommit(manager);
    return row.stored ? id : undefined;
  }

  /** A `webhook.test` for one endpoint, whatever it subscribes to and even while it is disabled. */
  async recordTest(
    manager: EntityManager,
    endpoint: { id: string; orgId: string },
  ): Promise<string> {
    const now = this.clock.now();
    const payload = JSON.stringify({
      type: TEST_EVENT_TYPE,
      timestamp: now.toISOString(),
      data: { endpoint_id: endpoint.id },
    });
    const id = randomUUID();
    await manager.query(INSERT_EVENT_SQL, [
      id,
      TEST_EVENT_TYPE,
      endpoint.orgId,
      payload,
      now,
      true,
    ]);
    await manager.query(INSERT_TEST_DELIVERY_SQL, [id, endpoint.id, now]);
    this.wakeAfterCommit(manager);
    return id;
  }

  /**
   * The upgrade's sealing step (SubscriptionSealing): the bodies an earlier release stored in
   * plain text for these owners, sealed under their keys. Returns how many.
   */
  async sealPlainBodies(manager: EntityManager, keys: Map<string, OpenKey>): Promise<number> {
    if (keys.size === 0) return 0;
    type Row = { id: string; payload: string; owner: string };
    const rows = await manager.query<Row[]>(PLAIN_BODIES_SQL, [[...keys.keys()]]);
    for (const row of rows) {
      const key = keys.get(row.owner)!;
      const sealed = this.personalData.seal(key, row.payload);
      await manager.query(SEAL_BODY_SQL, [row.id, sealed, key.owner]);
    }
    return rows.length;
  }

  /** Outside a transaction the rows are committed already: wake now. */
  wakeAfterCommit(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) (runner.data as Record<string, unknown>)[WAKE_FLAG] = true;
    else this.wake.notify();
  }
}
