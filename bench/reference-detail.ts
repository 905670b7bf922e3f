/**
 * The yardstick's GET /api/v1/subscriptions/{id}: the service's reads (the record, its data key,
 * its history), the unwrap and the open, and the `subscription.viewed` audit event appended to the
 * chain as the service's AuditTrail does (advisory lock, last row, insert, HMAC-SHA-256 under the audit key), in
 * its order.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import {
  GENESIS_HASH,
  INSERT_EVENT_SQL,
  insertParams,
  keyedLink,
  microsecondTime,
} from '../src/audit/audit-chain';
import type { ChainedFields } from '../src/audit/audit-chain';
import { ADVISORY_LOCK } from '../src/database/advisory-locks';
import {
  auditMacOf,
  keyOf,
  masterKey,
  openPersonal,
  RecordRow,
  recordView,
} from './reference-sealing';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface HistoryRow {
  event_id: string;
  from_status: string;
  to_status: string;
  event_created_at: Date;
  received_at: Date;
  source: string;
}

/** The signed-in user the session cookie names (the reference's session check). */
export interface Viewer {
  user_id: string;
  org_id: string;
}

export function detailHandler(
  pool: Pool,
  session: (req: IncomingMessage) => Promise<Viewer | undefined>,
) {
  const master = masterKey();
  const auditMac = auditMacOf(pool, master);
  const fulfilmentOrg = process.env.FULFILMENT_ORG_ID;

  /** One writer at a time extends the one chain: the lock, the last row, the insert, committed. */
  async function audit(viewer: Viewer, subjectId: string, req: IncomingMessage): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('START TRANSACTION');
      await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK.auditChain]);
      const { rows } = await client.query<{ seq: string; hash: string }>(
        'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
      );
      const last = rows[0];
      const f: ChainedFields = {
        seq: last ? (BigInt(last.seq) + 1n).toString() : '1',
        occurredAt: microsecondTime(new Date()),
        action: 'subscription.viewed',
        actorType: 'user',
        actorId: viewer.user_id,
        actorOrgId: viewer.org_id,
        subjectType: 'subscription',
        subjectId,
        subjectOrgId: fulfilmentOrg ?? null,
        ip: req.socket.remoteAddress ?? null,
        requestId: randomUUID(),
        details: {},
        prevHash: last?.hash ?? GENESIS_HASH,
      };
      await client.query(INSERT_EVENT_SQL, insertParams(f, keyedLink(f, await auditMac())));
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  }

  return async function detail(
    req: IncomingMessage,
    _b: Buffer,
    url: URL,
  ): Promise<[number, unknown]> {
    const viewer = await session(req);
    if (!viewer) return [401, { code: 'unauthenticated' }];
    if (viewer.org_id !== fulfilmentOrg) return [403, { code: 'forbidden' }];
    const id = decodeURIComponent(url.pathname.split('/').pop() ?? '').toLowerCase();
    const found = UUID.test(id)
      ? await pool.query<RecordRow>('SELECT * FROM subscriptions WHERE id = $1 LIMIT 1', [id])
      : { rows: [] };
    const row = found.rows[0];
    if (!row) return [404, { code: 'not_found' }];
    const personal = openPersonal(await keyOf(pool, master, row.id), row.personal);
    const history = await pool.query<HistoryRow>(
      'SELECT * FROM subscription_history WHERE subscription_id = $1 ORDER BY event_created_at ASC, id ASC',
      [row.id],
    );
    await audit(viewer, row.id, req);
    return [
      200,
      {
        ...recordView(row, personal),
        history: history.rows.map((h) => ({
          event_id: h.event_id,
          from: h.from_status,
          to: h.to_status,
          event_created_at: h.event_created_at.toISOString(),
          received_at: h.received_at.toISOString(),
          source: h.source,
        })),
      },
    ];
  };
}
