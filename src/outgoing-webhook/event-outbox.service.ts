import { randomUUID } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  TransactionCommitEvent,
} from 'typeorm';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../config/app-config';
import { DeliveryWake } from './delivery-wake.service';
import type { DeviceEventType, SubscriptionEventType } from './outgoing-webhook.types';
import { TEST_EVENT_TYPE } from './outgoing-webhook.types';

/** A change to report: its type and its `data` as integrators get it. */
export type NewOutgoingEvent =
  | { type: SubscriptionEventType; data: object }
  | { type: DeviceEventType; orgId: string; data: object };

const WAKE_FLAG = 'outgoingWebhookWake';

const INSERT_EVENT_SQL = `INSERT INTO outgoing_events (id, type, org_id, payload, created_at, settled_at)
  VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::boolean THEN NULL ELSE $5::timestamptz END)`;
const SUBSCRIBED_SQL = `SELECT 1 FROM webhook_endpoints
  WHERE org_id = $1 AND enabled AND $2 = ANY(event_types) LIMIT 1`;
const INSERT_DELIVERIES_SQL = `INSERT INTO webhook_deliveries
  (event_id, endpoint_id, status, attempts, next_attempt_at, manual, created_at)
  SELECT $1, id, 'pending', 0, $3, false, $3 FROM webhook_endpoints
  WHERE org_id = $2 AND enabled AND $4 = ANY(event_types)`;
const INSERT_TEST_DELIVERY_SQL = `INSERT INTO webhook_deliveries
  (event_id, endpoint_id, status, attempts, next_attempt_at, manual, created_at)
  VALUES ($1, $2, 'pending', 0, $3, false, $3)`;

/**
 * The transactional outbox: callers write the event with their own transaction's manager, so the
 * change and its event commit together or not at all. Deliveries go to the endpoints subscribed at
 * this moment; this process's worker is woken once the transaction commits.
 */
@Injectable()
export class EventOutbox implements OnModuleInit, EntitySubscriberInterface {
  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly wake: DeliveryWake,
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
    const orgId =
      'orgId' in event ? event.orgId : (this.config.subscriptions.fulfilmentOrgId ?? null);
    const now = this.clock.now();
    const payload = JSON.stringify({
      type: event.type,
      timestamp: now.toISOString(),
      data: event.data,
    });
    const subscribed =
      orgId !== null &&
      (await manager.query<unknown[]>(SUBSCRIBED_SQL, [orgId, event.type])).length > 0;
    const id = randomUUID();
    await manager.query(INSERT_EVENT_SQL, [id, event.type, orgId, payload, now, subscribed]);
    if (subscribed) {
      await manager.query(INSERT_DELIVERIES_SQL, [id, orgId, now, event.type]);
      this.wakeAfterCommit(manager);
    }
    return id;
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

  /** Outside a transaction the rows are committed already: wake now. */
  wakeAfterCommit(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) (runner.data as Record<string, unknown>)[WAKE_FLAG] = true;
    else this.wake.notify();
  }
}
