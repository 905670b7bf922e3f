import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One event of the append-only audit trail (docs/audit.md). A trigger refuses UPDATE and DELETE
 * (migration 1795800000000-AuditEvents), but for the retention's pruning from the oldest end.
 * `hash` is the SHA-256 of the row's canonical form with `prev_hash` (audit-chain.ts), so a row
 * changed by hand breaks the chain `audit:verify` walks. bigint columns are read as strings.
 */
@Entity({ name: 'audit_events' })
@Index('IDX_audit_events_occurred_at_id', ['occurredAt', 'id'])
@Index('IDX_audit_events_actor_org', ['actorOrgId', 'occurredAt', 'id'])
@Index('IDX_audit_events_subject_org', ['subjectOrgId', 'occurredAt', 'id'])
@Index('IDX_audit_events_action', ['action', 'occurredAt'])
@Index('IDX_audit_events_actor_id', ['actorId'])
@Index('IDX_audit_events_subject_id', ['subjectId'])
export class AuditEvent {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** The event's place in the chain: one more than the event before it. */
  @Index('UQ_audit_events_seq', { unique: true })
  @Column({ type: 'bigint' })
  seq!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType!: string;

  @Column({ name: 'actor_id', type: 'varchar', length: 128, nullable: true })
  actorId!: string | null;

  @Column({ name: 'actor_org_id', type: 'uuid', nullable: true })
  actorOrgId!: string | null;

  @Column({ name: 'subject_type', type: 'varchar', length: 32, nullable: true })
  subjectType!: string | null;

  @Column({ name: 'subject_id', type: 'varchar', length: 128, nullable: true })
  subjectId!: string | null;

  @Column({ name: 'subject_org_id', type: 'uuid', nullable: true })
  subjectOrgId!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  /** Ids, counts, codes and hashes only, never personal data (audit-chain.ts checks the shape). */
  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;

  @Column({ name: 'prev_hash', type: 'char', length: 64 })
  prevHash!: string;

  @Column({ type: 'char', length: 64 })
  hash!: string;
}
