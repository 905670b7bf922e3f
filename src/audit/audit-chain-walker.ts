import { AuditMac, ChainedFields, eventHash, GENESIS_HASH, keyedLink } from './audit-chain';

/** A chained row as `audit:verify` reads it. */
export interface ChainedRow extends ChainedFields {
  id: string;
  hash: string;
}

/** Where the chain may start and where its keyed part begins (`audit_chain_starts`, authentic). */
export interface ChainStarts {
  /** Events up to this seq carry plain SHA-256 links, the ones after it keyed links. */
  keyed: { seq: bigint; hash: string };
  /** Each pruning's last deleted event: its seq (as text) and hash. */
  pruned: Map<string, string>;
}

/** An event that `audit:verify --checkpoint SEQ:HASH` expects, as a logged checkpoint named it. */
export interface Checkpoint {
  seq: bigint;
  hash: string;
}

export type BreakReason = 'hash' | 'prev_hash' | 'seq' | 'start' | 'keyed_start' | 'checkpoint';

/** Why a row does not match: its own hash, its link to the row before, or a recorded start. */
export interface ChainBreak {
  id: string;
  seq: string;
  reason: BreakReason;
}

/**
 * Walks the chain in seq order, one row at a time (the caller streams them in batches). The first
 * row must be the first event ever (seq 1 after the genesis value) or follow a recorded pruning;
 * each row's link is plain up to the keyed start and keyed after it.
 */
export class ChainWalker {
  private last?: { seq: bigint; hash: string };
  private checkpointSeen = false;
  count = 0;

  constructor(
    private readonly starts: ChainStarts,
    private readonly mac: AuditMac,
    private readonly checkpoint?: Checkpoint,
  ) {}

  /** The break this row makes, or undefined when it follows the one before. */
  next(row: ChainedRow): ChainBreak | undefined {
    const at = { id: row.id, seq: row.seq };
    const seq = BigInt(row.seq);
    if (!this.last && !this.explained(seq, row.prevHash)) return { ...at, reason: 'start' };
    if (this.last && seq !== this.last.seq + 1n) return { ...at, reason: 'seq' };
    if (this.last && row.prevHash !== this.last.hash) return { ...at, reason: 'prev_hash' };
    const keyed = this.starts.keyed;
    const link = seq <= keyed.seq ? eventHash(row) : keyedLink(row, this.mac);
    if (link !== row.hash) return { ...at, reason: 'hash' };
    if (seq === keyed.seq && row.hash !== keyed.hash) return { ...at, reason: 'keyed_start' };
    if (this.checkpoint?.seq === seq) {
      if (row.hash !== this.checkpoint.hash) return { ...at, reason: 'checkpoint' };
      this.checkpointSeen = true;
    }
    this.last = { seq, hash: row.hash };
    this.count += 1;
    return undefined;
  }

  /** After the last row: what the chain's ends say is missing, or undefined when nothing is. */
  end(): string | undefined {
    // Pruning never deletes the newest event, and the keyed start names an event that was there.
    const newest = this.last?.seq ?? 0n;
    const pruned = [...this.starts.pruned.keys()].map(BigInt);
    const lastPruned = pruned.reduce((a, b) => (a > b ? a : b), -1n);
    if (newest < this.starts.keyed.seq || newest <= lastPruned) {
      const start = lastPruned > this.starts.keyed.seq ? lastPruned : this.starts.keyed.seq;
      return `the newest audit events are missing: a recorded start of the chain names seq ${start}, the newest event left is ${this.last ? `seq ${newest}` : 'none'}`;
    }
    if (this.checkpoint && !this.checkpointSeen) {
      return `audit event seq ${this.checkpoint.seq} of the checkpoint is missing; ${this.count} events verified`;
    }
    return undefined;
  }

  private explained(seq: bigint, prevHash: string): boolean {
    if (seq === 1n && prevHash === GENESIS_HASH) return true;
    return this.starts.pruned.get((seq - 1n).toString()) === prevHash;
  }
}
