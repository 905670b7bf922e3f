import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { currentRequest } from '../common/logging/request-context';
import { ADVISORY_LOCK } from '../database/advisory-locks';
import {
  ACTION_NAME,
  assertSafeDetails,
  ChainedFields,
  INSERT_EVENT_SQL,
  insertParams,
  GENESIS_HASH,
  keyedLink,
  microsecondTime,
} from './audit-chain';
import { AuditChainStarts } from './audit-chain-starts.service';
import { AuditEvent } from './audit-event.entity';
import { AuditEventDto, AuditEventRow } from './audit-event-view.dto';
import type { NewAuditEvent } from './audit-event.types';

const OF_SUBJECT_SQL = `SELECT id, occurred_at, action, actor_type, actor_id, subject_type,
  subject_id, ip, request_id, details FROM audit_events
  WHERE subject_type = $1 AND subject_id = $2 ORDER BY seq`;

/**
 * The one writer of audit events (docs/audit.md): appends to the keyed chain (each link an HMAC
 * under the audit key), one writer at a time across every instance (a transaction-level advisory
 * lock), so the chain stays one line. At boot it keys a chain written with plain links.
 *
 * `details` carry ids, counts, codes and hashes only, never personal data (contract section 9):
 * `append` throws on a string with a space or an `@`, or on anything but strings, numbers,
 * booleans, null and lists of strings.
 */
@Injectable()
export class AuditTrail implements OnApplicationBootstrap {
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    private readonly clock: Clock,
    private readonly starts: AuditChainStarts,
  ) {}

  /** The upgrade of a chain with plain links (docs/audit.md), before anything is appended. */
  async onApplicationBootstrap(): Promise<void> {
    await this.starts.ensureKeyed();
  }

  /** Every event about one subject, oldest first: what the export tells a customer (section 9). */
  async ofSubject(
    type: string,
    id: string,
    manager: EntityManager = this.events.manager,
  ): Promise<AuditEventDto[]> {
    const rows = await manager.query<AuditEventRow[]>(OF_SUBJECT_SQL, [type, id]);
    return rows.map((r) => AuditEventDto.from(r));
  }

  /**
   * Writes the event in `manager`'s transaction when it has one (the change and its event commit
   * together), otherwise in a transaction of its own. The chain's lock is then held until that
   * transaction ends: append as the transaction's last statement, so it is held briefly.
   */
  async append(event: NewAuditEvent, manager?: EntityManager): Promise<void> {
    if (!ACTION_NAME.test(event.action)) throw new Error(`audit: bad action ${event.action}`);
    assertSafeDetails(event.details ?? {});
    if (manager?.queryRunner?.isTransactionActive) return this.write(manager, event);
    return (manager ?? this.events.manager).transaction((m) => this.write(m, event));
  }

  private async write(m: EntityManager, event: NewAuditEvent): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK.auditChain]);
    const [last] = await m.query<{ seq: string; hash: string }[]>(
      'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
    );
    const f = this.fieldsOf(event, last);
    await m.query(INSERT_EVENT_SQL, insertParams(f, keyedLink(f, this.starts.mac)));
  }

  private fieldsOf(event: NewAuditEvent, last?: { seq: string; hash: string }): ChainedFields {
    const request = requestFields();
    return {
      seq: last ? (BigInt(last.seq) + 1n).toString() : '1',
      occurredAt: microsecondTime(this.clock.now()),
      action: event.action,
      actorType: event.actor.type,
      actorId: event.actor.id,
      actorOrgId: event.actor.orgId,
      subjectType: event.subject?.type ?? null,
      subjectId: event.subject?.id ?? null,
      subjectOrgId: event.subject?.orgId ?? null,
      ...request,
      details: event.details ?? {},
      prevHash: last?.hash ?? GENESIS_HASH,
    };
  }
}

/**
 * The client's address (as Express resolves it under TRUST_PROXY, as AuditLog does) and the
 * access line's request id (pino-http's `req.id`); both null outside a request (the CLI, timers).
 */
function requestFields(): { ip: string | null; requestId: string | null } {
  const req = currentRequest();
  const id = (req as { id?: unknown } | undefined)?.id;
  return {
    ip: req?.ip?.slice(0, 64) ?? null,
    requestId: typeof id === 'string' ? id.slice(0, 128) : null,
  };
}
