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
import { bodyOf } from './event-body';
import { EachRowStatement, eachRowParams, MANY_EVENTS_SQL, oneEventSql } from './event-outbox.sql';
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
  return oneEventSql(change, n) as OutboxStatement;
}

const RECORD_SQL = oneEventSql(undefined, 0);
const RECORD_TEST_SQL = oneEventSql(undefined, 0, true);

/** An organization's event with no personal data: what `recordMany` takes. */
export type OrgOutgoingEvent = Extract<NewOutgoingEvent, { orgId: string }>;

/** What an outbox statement returns: the events stored and their deliveries. */
type Stored = { stored: number; delivered: number };

/** A `webhook.test`: to one endpoint of the organization, whatever it subscribes to. */
type TestEvent = { type: typeof TEST_EVENT_TYPE; orgId: string; data: object };

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
    const ids = events.map(() => randomUUID());
    const bodies = events.map((e) => bodyOf(e.type, now, e.data));
    const types = events.map((e) => e.type);
    const orgs = events.map((e) => e.orgId);
    const params = [ids, types, orgs, bodies, now];
    return this.run(manager, MANY_EVENTS_SQL, params);
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

  /**
   * Makes the change of `statement` and stores an event of `type` for each row it returned, in
   * one statement (atomic without a transaction); returns how many were stored.
   */
  recordEach(
    manager: EntityManager,
    statement: EachRowStatement,
    params: unknown[],
    type: OrgOutgoingEvent['type'],
  ): Promise<number> {
    return this.run(manager, statement, [...params, ...eachRowParams(type, this.clock.now())]);
  }

  /** A `webhook.test` for one endpoint, whatever it subscribes to and even while it is disabled. */
  async recordTest(
    manager: EntityManager,
    endpoint: { id: string; orgId: string },
  ): Promise<string> {
    const data = { endpoint_id: endpoint.id };
    const event: TestEvent = { type: TEST_EVENT_TYPE, orgId: endpoint.orgId, data };
    return (await this.store(manager, RECORD_TEST_SQL, [], event, endpoint.id))!;
  }

  /** One event (after the change's parameters `before`); its id, or undefined if not stored. */
  private async store(
    manager: EntityManager,
    sql: string,
    before: unknown[],
    event: NewOutgoingEvent | TestEvent,
    endpoint?: string,
  ): Promise<string | undefined> {
    const orgId =
      'orgId' in event ? event.orgId : (this.config.subscriptions.fulfilmentOrgId ?? null);
    const now = this.clock.now();
    const body = bodyOf(event.type, now, event.data);
    const key = 'sealWith' in event ? event.sealWith : undefined;
    const payload = key ? this.personalData.seal(key, body) : body;
    const id = randomUUID();
    const subject = 'subjectId' in event ? event.subjectId : null;
    const params = [...before, id, event.type, orgId, payload, now, key?.owner ?? null, subject];
    const stored = await this.run(
      manager,
      sql,
      endpoint === undefined ? params : [...params, endpoint],
    );
    return stored > 0 ? id : undefined;
  }

  /** Runs an outbox statement; wakes the worker once its deliveries are committed. */
  private async run(manager: EntityManager, sql: string, params: unknown[]): Promise<number> {
    const [row] = await statementRows<Stored>(manager, sql, params);
    if (row.delivered > 0) this.wakeAfterCommit(manager);
    return row.stored;
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
