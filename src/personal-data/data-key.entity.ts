import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One data key (AES-256-GCM) per owner of personal data, a subscription today, wrapped by the
 * master key. Deleting the row is the erasure: every value sealed under it, in every table, is
 * unreadable from then on (docs/privacy.md).
 */
@Entity({ name: 'data_keys' })
export class DataKey {
  /** The owner's id (the subscription's): sealed values name it as their associated data. */
  @PrimaryColumn('uuid')
  id!: string;

  /** The data key, wrapped by a master key that it names (`wrap`, personal-data.crypto.ts). */
  @Column({ type: 'text' })
  wrapped!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
