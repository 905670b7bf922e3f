import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { changedRows } from '../../database/changed-rows';
import { ERASED_ERROR, TEST_EVENT_TYPE } from '../outgoing-webhook.types';

/** A delivery made of an event about one subscription: what its export lists. */
export interface SubjectDelivery {
  endpointId: string;
  url: string;
  eventId: string;
  type: string;
  deliveredAt: Date;
}

/**
 * What has not been sent yet of the bodies sealed under the key ends here, for good. Attempts in
 * flight (a live lease) are left to the worker: it finds the key gone, or has sent already.
 */
const FAIL_PENDING_OF_SQL = `UPDATE webhook_deliveries d SET status = 'failed',
    next_attempt_at = NULL, manual = false, claimed_until = NULL, claim_token = NULL,
    last_error = '${ERASED_ERROR}'
  FROM outgoing_events e
  WHERE e.data_key_id = $1 AND e.id = d.event_id AND d.status = 'pending'
    AND e.type <> '${TEST_EVENT_TYPE}' AND (d.claimed_until IS NULL OR d.claimed_until < $2)`;

const DELIVERED_OF_SQL = `SELECT d.endpoint_id AS "endpointId", w.url, d.event_id AS "eventId",
    e.type, d.delivered_at AS "deliveredAt"
  FROM outgoing_events e JOIN webhook_deliveries d ON d.event_id = e.id
  JOIN webhook_endpoints w ON w.id = d.endpoint_id
  WHERE e.subject_id = $1 AND d.status = 'delivered'
  ORDER BY d.delivered_at, d.event_id`;

/** The deliveries of one subscription's events: failed on erasure, listed in its export. */
@Injectable()
export class SubjectDeliveries {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the erasure's transaction, once the key is destroyed; returns how many were failed. */
  async failPendingOf(manager: EntityManager, dataKeyId: string, now: Date): Promise<number> {
    return (await changedRows(manager, FAIL_PENDING_OF_SQL, [dataKeyId, now])).affected;
  }

  /** Oldest first: which integrators received what about the subscription, and when. */
  async deliveredOf(
    subjectId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SubjectDelivery[]> {
    const rows = await manager.query<SubjectDelivery[]>(DELIVERED_OF_SQL, [subjectId]);
    return rows.map((r) => ({ ...r, deliveredAt: new Date(r.deliveredAt) }));
  }
}
