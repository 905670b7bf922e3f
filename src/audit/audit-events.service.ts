import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DomainError } from '../common/errors/domain.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { keysetPage, PageRequest } from '../common/pagination/keyset-page';
import type { Page } from '../common/pagination/page';
import { ChainBreak, ChainedRow, ChainWalker, MICROSECOND_TIME_SQL } from './audit-chain';
import { AUDIT_ORDER, AuditPosition } from './audit-cursor';
import type { AuditEventRow } from './audit-event-view.dto';
import { AuditEvent } from './audit-event.entity';

export interface AuditFilter {
  action?: string;
  actorId?: string;
  subjectId?: string;
  since?: string;
}

/** Rows per read of `audit:verify`: the chain is walked a batch at a time, never held whole. */
export const VERIFY_BATCH = 1000;

const VERIFY_SQL = `SELECT id, seq, ${MICROSECOND_TIME_SQL} AS "occurredAt", action,
  actor_type AS "actorType", actor_id AS "actorId", actor_org_id AS "actorOrgId",
  subject_type AS "subjectType", subject_id AS "subjectId", subject_org_id AS "subjectOrgId",
  ip, request_id AS "requestId", details, prev_hash AS "prevHash", hash
  FROM audit_events WHERE seq > $1 ORDER BY seq LIMIT $2`;

const LIST_COLUMNS = `id, occurred_at, ${MICROSECOND_TIME_SQL} AS at, action, actor_type,
  actor_id, subject_type, subject_id, ip, request_id, details`;

export type VerifyResult =
  { ok: true; count: number } | ({ ok: false; count: number } & ChainBreak);

/** The trail as it is read: the admins' list, and the chain's check. */
@Injectable()
export class AuditEvents {
  constructor(@InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>) {}

  /** The events of the org (as actor or subject), newest first, keyset on (occurred_at, id). */
  list(orgId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEventRow>> {
    const since = filter.since === undefined ? undefined : sinceTime(filter.since);
    return keysetPage(page, AUDIT_ORDER, (after, take) =>
      this.newestFirst(orgId, { ...filter, since }, after, take),
    );
  }

  private newestFirst(
    orgId: string,
    filter: AuditFilter,
    after: AuditPosition | undefined,
    take: number,
  ): Promise<(AuditEventRow & { at: string })[]> {
    const params: unknown[] = [orgId];
    const where = ['(actor_org_id = $1 OR subject_org_id = $1)'];
    // Each filter one parameter: `$n` is the value just pushed.
    const add = (column: string, value: unknown, cast = '') => {
      params.push(value);
      where.push(`${column} ${column === 'occurred_at' ? '>=' : '='} $${params.length}${cast}`);
    };
    if (filter.action) add('action', filter.action);
    if (filter.actorId) add('actor_id', filter.actorId);
    if (filter.subjectId) add('subject_id', filter.subjectId);
    if (filter.since) add('occurred_at', filter.since, '::timestamptz');
    if (after) {
      params.push(after.at, after.id);
      const [a, b] = [params.length - 1, params.length];
      where.push(`(occurred_at, id) < (CAST($${a} AS timestamptz), CAST($${b} AS bigint))`);
    }
    params.push(take);
    return this.events.query(
      `SELECT ${LIST_COLUMNS} FROM audit_events WHERE ${where.join(' AND ')}
       ORDER BY occurred_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
  }

  /** Walks the whole chain in seq order, a batch at a time; stops at the first break. */
  async verify(): Promise<VerifyResult> {
    const walker = new ChainWalker();
    let after = '0';
    for (;;) {
      const rows = await this.events.query<ChainedRow[]>(VERIFY_SQL, [after, VERIFY_BATCH]);
      for (const row of rows) {
        const broken = walker.next(row);
        if (broken) return { ok: false, count: walker.count, ...broken };
      }
      if (rows.length < VERIFY_BATCH) return { ok: true, count: walker.count };
      after = rows[rows.length - 1].seq;
    }
  }
}

/** `since` as PostgreSQL takes it: a valid ISO time of years 1 to 9999, else a 400 naming it. */
function sinceTime(since: string): string {
  const time = new Date(since);
  const year = time.getUTCFullYear();
  if (Number.isNaN(time.getTime()) || year < 1 || year > 9999) {
    throw new DomainError(ErrorCode.ValidationFailed, 'Bad time.', [
      { field: 'since', message: 'since must be an ISO 8601 time' },
    ]);
  }
  return time.toISOString();
}
