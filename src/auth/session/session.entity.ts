import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../user.entity';

/**
 * A signed-in browser. Only the SHA-256 of the cookie's token is kept. IDX_sessions_ended_at is on
 * an expression (SESSION_RETENTION's `endedAt`), which TypeORM cannot describe: the migration makes
 * it, and `synchronize: false` keeps generated migrations from dropping it.
 */
@Index('IDX_sessions_ended_at', { synchronize: false })
@Entity({ name: 'sessions' })
export class Session {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Hex SHA-256 of the opaque token in the cookie. */
  @Index('UQ_sessions_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Index('IDX_sessions_user')
  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** From the injected clock, like every other time here, so expiry tests can move time. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz' })
  lastUsedAt!: Date;

  /** The absolute end: login time plus SESSION_ABSOLUTE_TTL_SECONDS; a refresh keeps it. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** Last use plus SESSION_IDLE_TTL_SECONDS. */
  @Column({ name: 'idle_expires_at', type: 'timestamptz' })
  idleExpiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent!: string | null;

  /** The client address at sign-in or the last refresh, as Express resolves it under TRUST_PROXY. */
  @Column({ name: 'ip', type: 'varchar', length: 64, nullable: true })
  ip!: string | null;
}
