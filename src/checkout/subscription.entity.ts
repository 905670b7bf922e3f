import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export const SUBSCRIPTION_STATUSES = ['pending', 'paid'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A subscription intent from the public checkout, then (after the processor's webhook) the paid
 * subscription with what the customer entered on the hosted page.
 */
@Entity({ name: 'subscriptions' })
@Check('CHK_subscriptions_status', `"status" IN ('pending', 'paid')`)
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

  @Column({ name: 'processor_subscription_id', type: 'varchar', length: 255, nullable: true })
  processorSubscriptionId!: string | null;

  @Column({ name: 'processor_customer_id', type: 'varchar', length: 255, nullable: true })
  processorCustomerId!: string | null;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
