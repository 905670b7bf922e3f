import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One row per processor event id: its insert is what makes a duplicate delivery a no-op. */
@Entity({ name: 'processed_webhook_events' })
export class ProcessedWebhookEvent {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  type!: string;

  /** What the event did: applied, ignored, already_paid, unknown_subscription, ... */
  @Column({ type: 'varchar', length: 40 })
  outcome!: string;

  /** Set from the Clock on insert; housekeeping deletes ids older than 90 days, by this index. */
  @Index('IDX_processed_webhook_events_received_at')
  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;
}
