import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { CHAINED_COLUMNS_SQL } from './audit-chain';
import { AuditChainStarts } from './audit-chain-starts.service';
import { BreakReason, ChainedRow, ChainWalker, Checkpoint } from './audit-chain-walker';
import { AuditEvent } from './audit-event.entity';

/** Rows per read of `audit:verify`: the chain is walked a batch at a time, never held whole. */
export const VERIFY_BATCH = 1000;

const VERIFY_SQL = `SELECT ${CHAINED_COLUMNS_SQL} FROM audit_events WHERE seq > $1 ORDER BY seq LIMIT $2`;

export type VerifyResult = { ok: true; count: number } | { ok: false; reason: string };

const WHY: Record<BreakReason, string> = {
  hash: 'its hash does not match its fields',
  prev_hash: 'its prev_hash does not follow the event before it',
  seq: 'its seq does not follow the event before it',
  start: "its prev_hash is neither the first event's nor a recorded start of the chain",
  keyed_start: "its hash is not the one the chain's keyed start recorded",
  checkpoint: "its hash is not the checkpoint's",
};

/**
 * `audit:verify` (docs/audit.md, "Verifying"): the recorded starts, each against its MAC, then the
 * whole chain in seq order, its first event against them, and its newest end against the starts
 * and an optional logged checkpoint.
 */
@Injectable()
export class AuditVerifier {
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    private readonly starts: AuditChainStarts,
  ) {}

  /** In one snapshot: a pruning that commits meanwhile is not half seen (a start without it). */
  verify(checkpoint?: Checkpoint): Promise<VerifyResult> {
    return this.events.manager.transaction('REPEATABLE READ', async (m) => {
      await m.query('SET TRANSACTION READ ONLY');
      return this.walk(m, checkpoint);
    });
  }

  private async walk(m: EntityManager, checkpoint?: Checkpoint): Promise<VerifyResult> {
    const loaded = await this.starts.load(m);
    if (!loaded.ok) return { ok: false, reason: loaded.reason };
    const walker = new ChainWalker(loaded.starts, this.starts.mac, checkpoint);
    let after = '0';
    for (;;) {
      const rows = await m.query<ChainedRow[]>(VERIFY_SQL, [after, VERIFY_BATCH]);
      for (const row of rows) {
        const broken = walker.next(row);
        if (broken) {
          return {
            ok: false,
            reason: `audit event id ${broken.id} (seq ${broken.seq}) does not match: ${WHY[broken.reason]}; ${walker.count} events before it verified`,
          };
        }
      }
      if (rows.length < VERIFY_BATCH) break;
      after = rows[rows.length - 1].seq;
    }
    const missing = walker.end();
    return missing ? { ok: false, reason: missing } : { ok: true, count: walker.count };
  }
}
