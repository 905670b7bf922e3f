import { Check, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DEVICE_OFFLINE_AFTER_MIN } from '../config/device-offline-after';

@Entity({ name: 'organizations' })
@Check(
  'CHK_organizations_device_offline_after',
  `"device_offline_after_seconds" >= ${DEVICE_OFFLINE_AFTER_MIN}`,
)
export class Organization {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Null: DEVICE_OFFLINE_AFTER_SECONDS. When this org's devices count as offline (section 10). */
  @Column({ name: 'device_offline_after_seconds', type: 'integer', nullable: true })
  deviceOfflineAfterSeconds!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
