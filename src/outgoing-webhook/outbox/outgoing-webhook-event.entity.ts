import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One outgoing event, written in the transaction of the change it reports. `payload` is the body
 * exactly as every attempt sends it (fixed at creation, so signatures and retries agree).
 */
@Entity({ name: 'outgoing_events' })
@Index('IDX_outgoing_events_settled_at', ['settledAt'])
export class OutgoingEvent {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  /** The org whose endpoints may hear of it; null: the fulfilment org (subscriptions). */
  @Column({ name: 'org_id', type: 'uuid', nullable: true })
  orgId!: string | null;

  /** The body; sealed (`s1.…`) under the data key `dataKeyId` names when it carries personal data. */
  @Column({ type: 'text' })
  payload!: string;

  /** The owner whose data key seals `payload` (a subscription); null: a plain body. */
  @Index('IDX_outgoing_events_data_key_id', { where: 'data_key_id IS NOT NULL' })
  @Column({ name: 'data_key_id', type: 'uuid', nullable: true })
  dataKeyId!: string | null;

  /** The subscription the event is about, sealed or not: its export and its erasure find it. */
  @Index('IDX_outgoing_events_subject_id', { where: 'subject_id IS NOT NULL' })
  @Column({ name: 'subject_id', type: 'uuid', nullable: true })
  subjectId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** When its last delivery succeeded (or at once, with none to make): housekeeping's clock. */
  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt!: Date | null;
}
