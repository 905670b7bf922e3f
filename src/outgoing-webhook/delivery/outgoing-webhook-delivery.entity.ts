import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookEndpoint } from '../endpoints/outgoing-webhook-endpoint.entity';
import { OutgoingEvent } from '../outbox/outgoing-webhook-event.entity';
import type { DeliveryStatus } from '../outgoing-webhook.types';

/** One event for one endpoint: its attempts so far and when the next is due. */
@Entity({ name: 'webhook_deliveries' })
@Check('CHK_webhook_deliveries_status', `"status" IN ('pending', 'delivered', 'failed')`)
// The worker's claim: due pending deliveries, oldest due first.
@Index('IDX_webhook_deliveries_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
// The claim's per-endpoint probe: an endpoint's oldest due, and its live leases (few rows).
@Index('IDX_webhook_deliveries_endpoint_due', ['endpointId', 'nextAttemptAt'], {
  where: `"status" = 'pending'`,
})
@Index('IDX_webhook_deliveries_leased', ['endpointId'], { where: `"claimed_until" IS NOT NULL` })
// The endpoint's list, newest first (keyset on created_at, event_id).
@Index('IDX_webhook_deliveries_endpoint', ['endpointId', 'createdAt', 'eventId'])
export class WebhookDelivery {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @PrimaryColumn({ name: 'endpoint_id', type: 'uuid' })
  endpointId!: string;

  @ManyToOne(() => OutgoingEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: OutgoingEvent;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpoint;

  @Column({ type: 'varchar', length: 16 })
  status!: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1024, nullable: true })
  lastError!: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  /**
   * A retry was asked since the last claim: an attempt in flight then is followed by another at
   * once instead of its own outcome's schedule. The claim clears it.
   */
  @Column({ type: 'boolean', default: false })
  manual!: boolean;

  /** The lease of the instance sending it now; another may take it once the lease is over. */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil!: Date | null;

  @Column({ name: 'claim_token', type: 'uuid', nullable: true })
  claimToken!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
