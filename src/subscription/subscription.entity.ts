import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** docs/checkout.md; the check constraint below lists the same values. */
/** The one product this service sells; the processor's events for any other are not ours. */
export const LEASE_PRODUCT = 'lease';

export const SUBSCRIPTION_STATUSES = [
  'pending',
  'paid',
  'past_due',
  'canceled',
  'expired',
  'payment_failed',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A subscription intent from the public checkout, then (after the processor's events) the
 * subscription with what the customer entered on the hosted page, for as long as it lives.
 */
@Entity({ name: 'subscriptions' })
@Check(
  'CHK_subscriptions_status',
  `"status" IN ('pending', 'paid', 'past_due', 'canceled', 'expired', 'payment_failed')`,
)
// Keyset pages, newest first, with and without a status; the status one also finds reconcile work.
@Index('IDX_subscriptions_created_at_id', ['createdAt', 'id'])
@Index('IDX_subscriptions_status_created_at_id', ['status', 'createdAt', 'id'])
export class Subscription {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  product!: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: SubscriptionStatus;

  // What the checkout request said.
  @Column({ type: 'varchar', length: 120, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 160, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  coupon!: string | null;

  @Column({ type: 'varchar', length: 64 })
  source!: string;

  @Column({ name: 'lease_cents', type: 'integer' })
  leaseCents!: number;

  @Column({ name: 'monthly_cents', type: 'integer' })
  monthlyCents!: number;

  @Column({ type: 'varchar', length: 3 })
  currency!: string;

  @Index('UQ_subscriptions_checkout_session_id', { unique: true })
  @Column({ name: 'checkout_session_id', type: 'varchar', length: 255, nullable: true })
  checkoutSessionId!: string | null;

  @Column({ name: 'last_processor_error', type: 'text', nullable: true })
  lastProcessorError!: string | null;

  // What the processor reported once paid (the source document's Events table).
  @Column({ name: 'customer_email', type: 'varchar', length: 320, nullable: true })
  customerEmail!: string | null;

  @Column({ name: 'customer_name', type: 'varchar', length: 200, nullable: true })
  customerName!: string | null;

  @Column({ name: 'customer_phone', type: 'varchar', length: 40, nullable: true })
  customerPhone!: string | null;

  @Column({ name: 'recipient_name', type: 'varchar', length: 255, nullable: true })
  recipientName!: string | null;

  @Column({ name: 'living_situation', type: 'varchar', length: 100, nullable: true })
  livingSituation!: string | null;

  @Column({ name: 'primary_concern', type: 'varchar', length: 100, nullable: true })
  primaryConcern!: string | null;

  @Column({ name: 'shipping_address', type: 'text', nullable: true })
  shippingAddress!: string | null;

  @Column({ name: 'recipient_zip', type: 'varchar', length: 20, nullable: true })
  recipientZip!: string | null;

  /** The name on the shipping address (often the care recipient, not the buyer). */
  @Column({ name: 'shipping_name', type: 'varchar', length: 255, nullable: true })
  shippingName!: string | null;

  /** Events about the processor's subscription (invoices, updates) find the record by it. */
  @Index('IDX_subscriptions_processor_subscription_id')
  @Column({ name: 'processor_subscription_id', type: 'varchar', length: 255, nullable: true })
  processorSubscriptionId!: string | null;

  @Column({ name: 'processor_customer_id', type: 'varchar', length: 255, nullable: true })
  processorCustomerId!: string | null;

  /** When the checkout was paid, in the processor's time (the created of the event that said so). */
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt!: Date | null;

  /** When the processor's subscription ended, in the processor's time. */
  @Column({ name: 'canceled_at', type: 'timestamptz', nullable: true })
  canceledAt!: Date | null;

  /** When a reconcile pass last asked the processor about this record (so two passes do not). */
  @Column({ name: 'reconciled_at', type: 'timestamptz', nullable: true })
  reconciledAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
