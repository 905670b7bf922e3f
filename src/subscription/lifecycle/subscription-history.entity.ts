import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Subscription } from '../subscription.entity';
import type { SubscriptionStatus } from '../subscription.entity';

export const HISTORY_SOURCES = ['webhook', 'reconcile'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

/**
 * One event that touched a subscription: the processor's (webhook) or the one a reconcile pass
 * stood in for. `from` = `to` when the event only filled fields or moved nothing.
 */
@Entity({ name: 'subscription_history' })
@Index('UQ_subscription_history_event', ['subscriptionId', 'eventId'], { unique: true })
@Check('CHK_subscription_history_source', `"source" IN ('webhook', 'reconcile')`)
export class SubscriptionHistoryEntry {
  /** Also the arrival order, which breaks ties between events created in the same second. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @ManyToOne(() => Subscription, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscription_id' })
  subscription?: Subscription;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId!: string;

  @Column({ name: 'event_id', type: 'varchar', length: 255 })
  eventId!: string;

  @Column({ type: 'varchar', length: 100 })
  type!: string;

  /** What the event means for the status (subscription-status.machine.ts), kept to replay the timeline. */
  @Column({ type: 'varchar', length: 32 })
  effect!: string;

  @Column({ name: 'from_status', type: 'varchar', length: 16 })
  fromStatus!: SubscriptionStatus;

  @Column({ name: 'to_status', type: 'varchar', length: 16 })
  toStatus!: SubscriptionStatus;

  @Column({ name: 'event_created_at', type: 'timestamptz' })
  eventCreatedAt!: Date;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  @Column({ type: 'varchar', length: 16 })
  source!: HistorySource;
}
