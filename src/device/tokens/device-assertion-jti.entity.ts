import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Device } from '../device.entity';

/**
 * A `jti` a device has used in an assertion, kept until the assertion could no longer be accepted,
 * so a replay is refused by every instance. The primary key makes "first use wins" one atomic
 * INSERT … ON CONFLICT DO NOTHING.
 */
@Entity({ name: 'device_assertion_jtis' })
export class DeviceAssertionJti {
  @PrimaryColumn({ name: 'device_pk', type: 'uuid' })
  devicePk!: string;

  @ManyToOne(() => Device, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'device_pk' })
  device?: Device;

  @PrimaryColumn({ type: 'varchar', length: 255, collation: 'C' })
  jti!: string;

  // The cleanup deletes by expiry in batches.
  @Index('IDX_device_assertion_jtis_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
