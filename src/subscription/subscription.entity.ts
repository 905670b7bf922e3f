import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { sqlTextList } from '../database/sql-text-list';

/** The one product this service sells; the processor's events for any other are not ours. */
export const LEASE_PRODUCT = 'lease';

/** The statuses of docs/checkout.md; the CHECK below is built from them. */
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
 * Live (contract section 10): still billed, and the holder of its device; at most one live record
 * holds a device (the partial unique index UQ_subscriptions_live_device below).
 */
const LIVE_STATUSES: readonly SubscriptionStatus[] = ['paid', 'past_due'];
export const isLive = (status: SubscriptionStatus): boolean => LIVE_STATUSES.includes(status);
/** The live statuses as an SQL list, for the index below and the statements that use it. */
export const LIVE_STATUSES_SQL = sqlTextList(LIVE_STATUSES);

/**
 * A subscription intent from the public checkout, then (after the processor's events) the
 * subscription with what the customer entered on the hosted page, for as long as it lives.
 */
@Entity({ name: 'subscriptions' })
@Check('CHK_subscriptions_status', `"status" IN (${sqlTextList(SUBSCRIPTION_STATUSES)})`)
// Keyset pages, newest first, with and without a status; the status one also finds reconcile work.
@Index('IDX_subscriptions_created_at_id', ['createdAt', 'id'])
@Index('IDX_subscriptions_status_created_at_id', ['status', 'createdAt', 'id'])
// The reconcile pass finds the processor customers still to delete.
@Index('IDX_subscriptions_processor_erasure_pending', ['id'], {
  where: 'processor_erasure_pending',
})
// Retention finds ended records not yet erased by when they ended.
@Index('IDX_subscriptions_retention', ['status', 'statusChangedAt'], { where: 'erased_at IS NULL' })
// One live subscription per device (contract section 10), kept by the database against races; the
// first token's activation finds its record through it too.
@Index('UQ_subscriptions_live_device', ['deviceId'], {
  unique: true,
  where: `device_id IS NOT NULL AND status IN (${LIVE_STATUSES_SQL})`,
})
export class Subscription {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  product!: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: SubscriptionStatus;

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

  /**
   * The personal fields (PERSONAL_FIELDS) as JSON, sealed under the record's data key
   * (docs/privacy.md); null once erased.
   */
  @Column({ type: 'text', nullable: true })
  personal!: string | null;

  /** Keyed hashes of the checkout's and the processor's email, for `?email=` (never the email). */
  @Index('IDX_subscriptions_email_hash', { where: 'email_hash IS NOT NULL' })
  @Column({ name: 'email_hash', type: 'varchar', length: 64, nullable: true })
  emailHash!: string | null;

  @Index('IDX_subscriptions_customer_email_hash', { where: 'customer_email_hash IS NOT NULL' })
  @Column({ name: 'customer_email_hash', type: 'varchar', length: 64, nullable: true })
  customerEmailHash!: string | null;

  /** When the personal data was erased (on request or by retention). */
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt!: Date | null;

  /** Erased here, but the processor's customer not yet deleted: reconcile retries it. */
  @Column({ name: 'processor_erasure_pending', type: 'boolean', default: false })
  processorErasurePending!: boolean;

  /** When the record took its status: retention counts from it. */
  @Column({ name: 'status_changed_at', type: 'timestamptz' })
  statusChangedAt!: Date;

  /** Events about the processor's subscription (invoices, updates) find the record by it. */
  @Index('IDX_subscriptions_processor_subscription_id')
  @Column({ name: 'processor_subscription_id', type: 'varchar', length: 255, nullable: true })
  processorSubscriptionId!: string | null;

  @Column({ name: 'processor_customer_id', type: 'varchar', length: 255, nullable: true })
  processorCustomerId!: string | null;

  /**
   * When the checkout was paid: the `created` of the event that said so, never before
   * `createdAt` (the processor's whole second can read earlier than our own stamp).
   */
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt!: Date | null;

  /** When the processor's subscription ended, in the processor's time. */
  @Column({ name: 'canceled_at', type: 'timestamptz', nullable: true })
  canceledAt!: Date | null;

  /** When the hosted checkout (or an intent that never reached the processor) expired. */
  @Column({ name: 'expired_at', type: 'timestamptz', nullable: true })
  expiredAt!: Date | null;

  /** The device shipped for this record (`devices.device_id`); a replacement unit replaces it. */
  @Column({ name: 'device_id', type: 'varchar', length: 128, collation: 'C', nullable: true })
  deviceId!: string | null;

  @Column({ name: 'device_assigned_at', type: 'timestamptz', nullable: true })
  deviceAssignedAt!: Date | null;

  /** The assigned device's first token after its assignment. */
  @Column({ name: 'device_activated_at', type: 'timestamptz', nullable: true })
  deviceActivatedAt!: Date | null;

  @Column({ name: 'device_carrier', type: 'varchar', length: 100, nullable: true })
  deviceCarrier!: string | null;

  /** When a reconcile pass last asked the processor about this record (so two passes do not). */
  @Column({ name: 'reconciled_at', type: 'timestamptz', nullable: true })
  reconciledAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** Personal data of a record (contract section 9): stored only sealed, in `personal`. */
export const PERSONAL_FIELDS = [
  'name',
  'email',
  'lastProcessorError',
  'customerEmail',
  'customerName',
  'customerPhone',
  'recipientName',
  'livingSituation',
  'primaryConcern',
  'shippingAddress',
  'recipientZip',
  'shippingName',
  // The carrier's tracking number of the device shipped (contract section 10): it locates a home.
  'trackingNumber',
] as const;
export type PersonalField = (typeof PERSONAL_FIELDS)[number];
/** What the checkout request said (name, email), then what the processor reported once paid. */
export type PersonalFields = Record<PersonalField, string | null>;

/** A record with its personal fields opened: what services hand out, never what is stored. */
export type SubscriptionRecord = Subscription & PersonalFields;
