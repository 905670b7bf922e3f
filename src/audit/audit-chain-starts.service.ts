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
const OLDEST_SQL = `SELECT seq, prev_hash AS "prevHash" FROM audit_events ORDER BY seq LIMIT 1`;

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
   * Records, once, where the keyed links begin (docs/audit.md, "The upgrade of a chain with plain
   * links"): while the key check says the chain is not keyed yet (a new database, or an earlier
   * release's), after its newest event; the check then says it is. Takes the chain's lock.
   */
  async ensureKeyed(manager: EntityManager = this.rows.manager): Promise<void> {
    await manager.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK.auditChain]);
      const starts = await m.query<{ kind: string }[]>(
        'SELECT DISTINCT kind FROM audit_chain_starts',
      );
      if (starts.some((s) => s.kind === 'keyed')) {
        // Keyed before the check said so (a build of this release's making): the check catches up.
        if (!this.keyring.chainKeyed) await this.keyring.markChainKeyed(m);
        return;
      }
      const [last] = await m.query<ChainedRow[]>(NEWEST_SQL);
      // Never keyed again from what is there now, not even an empty chain: a chain rewritten with
      // plain links (or deleted) and its starts deleted would pass. Only the sealed key check
      // says it was never keyed.
      const plainChain = !this.keyring.chainKeyed && (!last || eventHash(last) === last.hash);
      if (starts.length > 0 || !plainChain) {
        this.logger.error("the audit chain's keyed start is missing: audit:verify fails");
        return;
      }
      await this.recordPlainStart(m);
      await this.record(m, {
        kind: 'keyed',
        seq: last?.seq ?? '0',
        hash: last?.hash ?? GENESIS_HASH,
      });
      await this.keyring.markChainKeyed(m);
      this.logger.log(`audit chain keyed after seq ${last?.seq ?? '0'}`);
    });
  }

  /**
   * An earlier release pruned without recording where the chain then started: its oldest event
   * left is recorded as a pruning's start would be, once, at the upgrade.
   */
  private async recordPlainStart(m: EntityManager): Promise<void> {
    const [first] = await m.query<{ seq: string; prevHash: string }[]>(OLDEST_SQL);
    if (!first || first.prevHash === GENESIS_HASH) return;
    await this.recordPruned(m, (BigInt(first.seq) - 1n).toString(), first.prevHash);
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
