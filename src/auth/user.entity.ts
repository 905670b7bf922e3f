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
import type { Role } from '../common/auth/auth-user';

@Entity({ name: 'users' })
@Check('CHK_users_role', `"role" IN ('admin', 'member')`)
@Index('UQ_users_idp', ['idpIssuer', 'idpSubject'], { unique: true })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('IDX_users_org')
  @Column({ name: 'org_id', type: 'uuid' })
  orgId!: string;

  @ManyToOne(() => Organization, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'org_id' })
  org?: Organization;

  /** Stored lowercased; unique, because a first login links the account by email. */
  @Index('UQ_users_email', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  @Column({ name: 'idp_issuer', type: 'varchar', length: 500, nullable: true })
  idpIssuer!: string | null;

  @Column({ name: 'idp_subject', type: 'varchar', length: 255, nullable: true })
  idpSubject!: string | null;

  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
