import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The database's one row about its keys: a check value wrapped by the master key it was written
 * with (a boot whose keys cannot open it stops), the search key for keyed email hashes and the
 * audit key for the audit chain's links.
 */
@Entity({ name: 'data_protection' })
@Check('CHK_data_protection_one_row', '"id" = 1')
export class DataProtection {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  /** A known value wrapped by the master key: which key the data was written under. */
  @Column({ name: 'key_check', type: 'text' })
  keyCheck!: string;

  /** HMAC key of the email hashes, wrapped by the master key (rekey rewraps it, hashes stay). */
  @Column({ name: 'search_key', type: 'text' })
  searchKey!: string;

  /**
   * HMAC key of the audit chain's links (src/audit), wrapped by the master key like the search
   * key. Null only on a database written before the chain was keyed: the next boot makes it.
   */
  @Column({ name: 'audit_key', type: 'text', nullable: true })
  auditKey!: string | null;

  /**
   * Outside production on a database server with no DATA_ENCRYPTION_KEY: the key made for this
   * database, in base64. Never in production (the variable is required there).
   */
  @Column({ name: 'generated_key', type: 'text', nullable: true })
  generatedKey!: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
