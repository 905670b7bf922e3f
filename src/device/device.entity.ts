import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Organization } from '../org/organization.entity';

export const DEVICE_STATUSES = ['active', 'deactivated'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** A device's registered public key, as stored: the public members only, with its `kid`. */
export interface StoredDeviceKey {
  kty: 'EC' | 'OKP';
  crv: 'P-256' | 'Ed25519';
  x: string;
  y?: string;
  kid: string;
  alg?: string;
}

/** A registered device. `device_id` is its canonical identifier, unique across all organizations. */
@Entity({ name: 'devices' })
@Check('CHK_devices_status', `"status" IN ('active', 'deactivated')`)
@Check('CHK_devices_battery_pct', `"battery_pct" BETWEEN 0 AND 100`)
@Check('CHK_devices_public_key', `("public_key" IS NULL) = ("public_key_thumbprint" IS NULL)`)
// The org's device list pages by device_id inside one org (keyset), so this index serves it whole.
@Index('IDX_devices_org_device_id', ['orgId', 'deviceId'])
// The liveness pass reads only the devices whose deadline has passed and were not reported yet:
// a range of this small index, never the table (docs/devices.md, "Liveness").
@Index('IDX_devices_liveness_due', ['offlineAfter'], {
  where: `offline_since IS NULL AND status = 'active' AND offline_after IS NOT NULL`,
})
export class Device {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'org_id', type: 'uuid' })
  orgId!: string;

  @ManyToOne(() => Organization, { nullable: false })
  @JoinColumn({ name: 'org_id' })
  org?: Organization;

  // Byte order ("C"), so the list's order and its cursors are the same on every server.
  @Index('UQ_devices_device_id', { unique: true })
  @Column({ name: 'device_id', type: 'varchar', length: 128, collation: 'C' })
  deviceId!: string;

  @Column({ type: 'varchar', length: 100 })
  model!: string;

  @Column({ type: 'varchar', length: 100 })
  provider!: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: DeviceStatus;

  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;

  @Column({ name: 'firmware_version', type: 'varchar', length: 64, nullable: true })
  firmwareVersion!: string | null;

  @Column({ name: 'battery_pct', type: 'smallint', nullable: true })
  batteryPct!: number | null;

  /**
   * When the device counts as offline: its last heartbeat or token plus its organization's
   * threshold, stamped with each; null before the first (never seen).
   */
  @Column({ name: 'offline_after', type: 'timestamptz', nullable: true })
  offlineAfter!: Date | null;

  /** Set by the liveness pass when it sent `device.offline`; cleared (and `device.online` sent) on the next contact. */
  @Column({ name: 'offline_since', type: 'timestamptz', nullable: true })
  offlineSince!: Date | null;

  /** `device.battery_low` was sent; cleared once a heartbeat reports 10 points above the line. */
  @Column({ name: 'battery_low', type: 'boolean', default: false })
  batteryLow!: boolean;

  /** Set: the device must sign an assertion with this key to get a token (see device-key.ts). */
  @Column({ name: 'public_key', type: 'jsonb', nullable: true })
  publicKey!: StoredDeviceKey | null;

  /** The key's RFC 7638 thumbprint (SHA-256, base64url): what records show, and `cnf.jkt`. */
  @Column({ name: 'public_key_thumbprint', type: 'varchar', length: 43, nullable: true })
  publicKeyThumbprint!: string | null;

  @Column({ name: 'deactivated_at', type: 'timestamptz', nullable: true })
  deactivatedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
