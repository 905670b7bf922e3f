import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organization } from '../../org/organization.entity';

/**
 * Where an organization wants its events sent. Secrets are stored encrypted (AES-256-GCM); the
 * previous one keeps signing until `previousSecretExpiresAt` so receivers can roll over.
 */
@Entity({ name: 'webhook_endpoints' })
@Index('IDX_webhook_endpoints_org', ['orgId', 'createdAt'])
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'org_id', type: 'uuid' })
  orgId!: string;

  @ManyToOne(() => Organization, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  org?: Organization;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ name: 'secret_encrypted', type: 'text' })
  secretEncrypted!: string;

  @Column({ name: 'previous_secret_encrypted', type: 'text', nullable: true })
  previousSecretEncrypted!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** Set by the first failed attempt after a success; its age decides the automatic disabling. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
