import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DomainError } from '../common/errors/domain.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { keysetPage, PageRequest } from '../common/pagination/keyset-page';
import type { Page } from '../common/pagination/page';
import { MICROSECOND_TIME_SQL } from './audit-chain';
import { AUDIT_ORDER, AuditPosition } from './audit-cursor';
import type { AuditEventRow } from './audit-event-view.dto';
import { AuditEvent } from './audit-event.entity';

export interface AuditFilter {
  action?: string;
  actorId?: string;
  subjectId?: string;
  since?: string;
}

const LIST_COLUMNS = `id, occurred_at, ${MICROSECOND_TIME_SQL} AS at, action, actor_type,
  actor_id, subject_type, subject_id, ip, request_id, details`;

/** The newest event: what `audit:head` prints and the checkpoint logs. */
export interface AuditHead {
  seq: number;
  hash: string;
  occurred_at: string;
}

const HEAD_SQL = 'SELECT seq, hash, occurred_at FROM audit_events ORDER BY seq DESC LIMIT 1';

/** The trail as it is read: the admins' list, and the chain's check. */
@Injectable()
export class AuditEvents {
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    private readonly config: AppConfig,
  ) {}

  /**
   * The events of the org (as actor or subject), newest first, keyset on (occurred_at, id). The
   * service's operator, FULFILMENT_ORG_ID, also sees the service-wide events: those with no
   * organization at all (`data.rekeyed`, a `cli` or `system` change of no one's).
   */
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
    const serviceWide = orgId === this.config.subscriptions.fulfilmentOrgId;
    const where = [
      serviceWide
        ? '(actor_org_id = $1 OR subject_org_id = $1 OR (actor_org_id IS NULL AND subject_org_id IS NULL))'
        : '(actor_org_id = $1 OR subject_org_id = $1)',
    ];
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

  /** The newest event, or null when the trail is empty. */
  async head(): Promise<AuditHead | null> {
    const [row] =
      await this.events.query<{ seq: string; hash: string; occurred_at: Date }[]>(HEAD_SQL);
    if (!row) return null;
    return { seq: Number(row.seq), hash: row.hash, occurred_at: row.occurred_at.toISOString() };
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
