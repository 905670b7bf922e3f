import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ADVISORY_LOCK } from '../database/advisory-locks';
import { DataKeyring } from '../personal-data/data-keyring';
import {
  AuditMac,
  CHAINED_COLUMNS_SQL,
  eventHash,
  GENESIS_HASH,
  startMac,
  StartFields,
} from './audit-chain';
import { AuditChainStart } from './audit-chain-start.entity';
import type { ChainedRow, ChainStarts } from './audit-chain-walker';

const NEWEST_SQL = `SELECT ${CHAINED_COLUMNS_SQL} FROM audit_events ORDER BY seq DESC LIMIT 1`;

const INSERT_START_SQL = `INSERT INTO audit_chain_starts (kind, seq, hash, mac, recorded_at)
  VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`;

/** The recorded starts, or why they cannot be trusted. */
export type LoadedStarts = { ok: true; starts: ChainStarts } | { ok: false; reason: string };

/**
 * The chain's recorded starts (docs/audit.md, "Both ends of the chain hold too"), each with an
 * HMAC under the audit key: where the keyed part begins, and where each pruning left the chain.
 */
@Injectable()
export class AuditChainStarts {
  private readonly logger = new Logger('AuditTrail');
  readonly mac: AuditMac;

  constructor(
    @InjectRepository(AuditChainStart) private readonly rows: Repository<AuditChainStart>,
    private readonly clock: Clock,
    private readonly keyring: DataKeyring,
  ) {
    this.mac = (text) => keyring.auditMac(text);
  }

  /**
   * Records, once, where the keyed links begin (docs/audit.md, "Upgrading"): on a new database
   * its first event; on a chain with plain links (the key check says so) after its newest event,
   * and the key check then says the chain is keyed. Takes the chain's lock.
   */
  async ensureKeyed(manager: EntityManager = this.rows.manager): Promise<void> {
    await manager.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK.auditChain]);
      const starts = await m.query<{ kind: string }[]>(
        'SELECT DISTINCT kind FROM audit_chain_starts',
      );
      if (starts.some((s) => s.kind === 'keyed')) return;
      const [last] = await m.query<ChainedRow[]>(NEWEST_SQL);
      // Never keyed again from the head of what is there now: a chain rewritten with plain links
      // and its starts deleted would pass. Only the sealed key check says it was never keyed.
      const plainChain = !this.keyring.chainKeyed && (!last || eventHash(last) === last.hash);
      const newChain = this.keyring.chainKeyed && !last;
      if (starts.length > 0 || !(plainChain || newChain)) {
        this.logger.error("the audit chain's keyed start is missing: audit:verify fails");
        return;
      }
      await this.record(m, {
        kind: 'keyed',
        seq: last?.seq ?? '0',
        hash: last?.hash ?? GENESIS_HASH,
      });
      if (plainChain) await this.keyring.markChainKeyed(m);
      this.logger.log(`audit chain keyed after seq ${last?.seq ?? '0'}`);
    });
  }

  /** A pruning's start, in its transaction, before it deletes up to `seq` (the trigger asks). */
  recordPruned(m: EntityManager, seq: string, hash: string): Promise<void> {
    return this.record(m, { kind: 'pruned', seq, hash });
  }

  /** Every recorded start, each checked against its MAC: one that is not authentic fails it all. */
  async load(manager: EntityManager = this.rows.manager): Promise<LoadedStarts> {
    const rows = await manager.find(AuditChainStart, { order: { seq: 'ASC' } });
    const pruned = new Map<string, string>();
    let keyed: ChainStarts['keyed'] | undefined;
    for (const row of rows) {
      const start = { kind: row.kind as StartFields['kind'], seq: row.seq, hash: row.hash };
      if (startMac(start, this.mac) !== row.mac) {
        return {
          ok: false,
          reason: `the chain's start (${row.kind}, seq ${row.seq}) is not authentic: its MAC does not match`,
        };
      }
      if (row.kind === 'pruned') pruned.set(row.seq, row.hash);
      else keyed = { seq: BigInt(row.seq), hash: row.hash };
    }
    if (!keyed) return { ok: false, reason: "the chain's keyed start is missing" };
    return { ok: true, starts: { keyed, pruned } };
  }

  private async record(m: EntityManager, start: StartFields): Promise<void> {
    const mac = startMac(start, this.mac);
    await m.query(INSERT_START_SQL, [start.kind, start.seq, start.hash, mac, this.clock.now()]);
  }
}
