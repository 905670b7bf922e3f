import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A recorded start of the audit chain (docs/audit.md, "Both ends"): where its keyed part begins
 * (`keyed`, written once, by the first boot that keys the chain) and where each pruning left it
 * (`pruned`). `mac` is an HMAC under the audit key, so a start written by anyone else does not
 * verify. A trigger refuses UPDATE, DELETE and TRUNCATE (migration 1796200000000-AuditChainKeyed).
 */
@Entity({ name: 'audit_chain_starts' })
export class AuditChainStart {
  /** `keyed` or `pruned`. */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind!: string;

  /** The last event before the start: the last plain event, or the last pruned one (0: none). */
  @PrimaryColumn({ type: 'bigint' })
  seq!: string;

  /** That event's hash: the `prev_hash` of the event after it. */
  @Column({ type: 'char', length: 64 })
  hash!: string;

  @Column({ type: 'char', length: 64 })
  mac!: string;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
