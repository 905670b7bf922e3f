import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { bootStep } from '../common/errors/boot.error';
import { normalizeEmail } from '../common/validation/email';
import { AppConfig } from '../config/app-config';
import { DataProtection } from './data-protection.entity';
import {
  isKeyCheck,
  KEY_CHECK,
  KeyCheckValue,
  MISSING_AUDIT_KEY,
  MISSING_KEY_ROW,
} from './data-keyring.check';
import { createKeyFile, readKeyFile } from './embedded-key.file';
import {
  keyedHash,
  keyId,
  openLegacySecret,
  unwrap,
  wrap,
  wrappedBy,
  wrappedByPattern,
} from './personal-data.crypto';

/**
 * The id of the fixed, public key earlier releases used outside production. Never accepted (whoever
 * writes the database could wrap a check under it); named so the boot can say the one-time way.
 */
const FIXED_DEVELOPMENT_KEY_ID = '7e52a2ccfa38877d';
export const KEY_SETTINGS = ['DATA_ENCRYPTION_KEY', 'DATA_ENCRYPTION_PREVIOUS_KEYS'];

/**
 * The master keys of this instance, resolved at boot against the database's key check
 * (docs/privacy.md): the current key wraps, every known key unwraps the values that name it. A
 * boot whose keys cannot open the check stops, so nothing is written under a key the data does not match.
 */
@Injectable()
export class DataKeyring implements OnModuleInit {
  private readonly logger = new Logger('DataKeys');
  private current!: Buffer;
  private readonly known = new Map<string, Buffer>();
  private searchKey!: Buffer;
  private auditKey!: Buffer;
  /** The key check's text, and the key it is wrapped under (the audit chain's upgrade rewrites it). */
  private check!: { value: KeyCheckValue; opener: Buffer };

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectRepository(DataProtection) private readonly rows: Repository<DataProtection>,
  ) {}

  async onModuleInit(): Promise<void> {
    await bootStep('data encryption keys', KEY_SETTINGS, () => this.load());
  }

  get currentKeyId(): string {
    return keyId(this.current);
  }

  wrap(secret: Buffer): string {
    return wrap(this.current, secret);
  }

  /** By the key the value names; the pre-rekey webhook secrets (`v1.`) by every key known. */
  unwrap(wrapped: string): Buffer {
    const kid = wrappedBy(wrapped);
    if (kid === undefined) return this.openLegacy(wrapped);
    const master = this.known.get(kid);
    if (!master) throw new Error(`wrapped by key ${kid}, which this instance does not hold`);
    return unwrap(master, wrapped);
  }

  /** A LIKE pattern for what is already under the current key (`data:rekey`'s statements). */
  get currentKeyPattern(): string {
    return wrappedByPattern(this.currentKeyId);
  }

  /** Already under the current key: what `data:rekey` skips. */
  isCurrent(wrapped: string): boolean {
    return wrappedBy(wrapped) === this.currentKeyId;
  }

  /** The keyed hash an email is found by: never the email itself (contract section 9). */
  emailHash(email: string): string {
    return keyedHash(this.searchKey, normalizeEmail(email));
  }

  /**
   * The audit chain's link (docs/audit.md): HMAC-SHA-256 under the audit key, which never leaves
   * this class, so only a holder of the master key can write a link that verifies.
   */
  auditMac(text: string): string {
    return keyedHash(this.auditKey, text);
  }

  /** Whether the key check says the audit chain is keyed (docs/audit.md, "The upgrade of a chain with plain links"). */
  get chainKeyed(): boolean {
    return this.check.value === KEY_CHECK.keyedChain;
  }

  /** The audit chain's upgrade, in its transaction: the key check now says the chain is keyed. */
  async markChainKeyed(manager: EntityManager): Promise<void> {
    const keyCheck = wrap(this.check.opener, Buffer.from(KEY_CHECK.keyedChain));
    await manager.update(DataProtection, 1, { keyCheck, updatedAt: this.clock.now() });
    this.check = { ...this.check, value: KEY_CHECK.keyedChain };
  }

  /** The key check, the search key and the audit key under the current key (rekey's last step). */
  async rewrapCheck(manager: EntityManager): Promise<boolean> {
    const row = await manager.findOneBy(DataProtection, { id: 1 });
    const generated = this.config.dataEncryption.key ? null : (row?.generatedKey ?? null);
    const current =
      row &&
      this.isCurrent(row.keyCheck) &&
      this.isCurrent(row.auditKey ?? '') &&
      row.generatedKey === generated;
    if (!row || current) return false;
    await manager.update(DataProtection, 1, {
      // Its text as the row has it now: another instance may have keyed the chain since this boot.
      keyCheck: this.wrap(this.unwrap(row.keyCheck)),
      searchKey: this.wrap(this.searchKey),
      auditKey: this.wrap(this.auditKey),
      generatedKey: generated,
      updatedAt: this.clock.now(),
    });
    return true;
  }

  private async load(): Promise<void> {
    let row = await this.rows.findOneBy({ id: 1 });
    if (!row) {
      await this.createCheck();
      row = await this.rows.findOneByOrFail({ id: 1 });
    }
    const kid = wrappedBy(row.keyCheck) ?? '?';
    this.current = await this.currentKey(row, kid);
    const { key, previousKeys } = this.config.dataEncryption;
    // A data store's own development key (in the database, or the embedded store's file) stays
    // readable once a real key is set, until rekey; never in production, where whoever writes the
    // database could put a key of their own in that column and wrap a check under it.
    const generated: Buffer[] =
      row.generatedKey && !this.config.isProduction
        ? [Buffer.from(row.generatedKey, 'base64')]
        : [];
    if (key) generated.push(...(await this.existingEmbeddedKey()));
    for (const k of [this.current, ...previousKeys, ...generated]) this.known.set(keyId(k), k);
    const opener = this.known.get(kid);
    const check = opener ? unwrap(opener, row.keyCheck).toString() : '';
    if (!opener || !isKeyCheck(check)) {
      throw new Error(
        `DATA_ENCRYPTION_KEY (key ${this.currentKeyId}) cannot read this database's data, written ` +
          `under key ${kid}: set that key as DATA_ENCRYPTION_KEY or in DATA_ENCRYPTION_PREVIOUS_KEYS` +
          fixedKeyHint(kid),
      );
    }
    this.check = { value: check, opener };
    this.searchKey = unwrap(opener, row.searchKey);
    if (!row.auditKey && this.chainKeyed) throw new Error(MISSING_AUDIT_KEY);
    this.auditKey = row.auditKey ? this.unwrap(row.auditKey) : await this.createAuditKey(opener);
    if (!key)
      this.logger.warn(
        `DATA_ENCRYPTION_KEY is not set: personal data is sealed under a key made for this data store (${this.currentKeyId}); set the variable before real data arrives`,
      );
  }

  /** The first boot on a database: its check and search key, under the key this boot resolves. */
  private async createCheck(): Promise<void> {
    // The row goes missing only by hand: made again beside sealed data, it would key afresh an
    // audit chain rewritten by whoever removed it (docs/audit.md).
    const sealed = await this.rows.manager.query<unknown[]>('SELECT 1 FROM data_keys LIMIT 1');
    if (sealed.length > 0) throw new Error(MISSING_KEY_ROW);
    const made = this.config.dataEncryption.key ?? (await this.embeddedKey()) ?? randomBytes(32);
    const generated =
      this.config.dataEncryption.key || this.embeddedKeyPath() ? null : made.toString('base64');
    // Two instances booting together: the first row wins, the other reads it back.
    await this.rows
      .createQueryBuilder()
      .insert()
      .values({
        id: 1,
        // Its audit chain, new or written by a release before keyed links, is keyed by the boot's
        // AuditChainStarts.ensureKeyed, which then rewrites the check to say so.
        keyCheck: wrap(made, Buffer.from(KEY_CHECK.plainChain)),
        searchKey: wrap(made, randomBytes(32)),
        auditKey: wrap(made, randomBytes(32)),
        generatedKey: generated,
        updatedAt: this.clock.now(),
      })
      .orIgnore()
      .execute();
  }

  /**
   * A database written before the audit chain was keyed: its audit key, under the key its check
   * is under (so every instance that reads the check reads it). Two instances booting together:
   * the first one's key stays, the other reads it back.
   */
  private async createAuditKey(opener: Buffer): Promise<Buffer> {
    await this.rows
      .createQueryBuilder()
      .update()
      .set({ auditKey: wrap(opener, randomBytes(32)) })
      .where('id = 1 AND audit_key IS NULL')
      .execute();
    const row = await this.rows.findOneByOrFail({ id: 1 });
    return this.unwrap(row.auditKey!);
  }

  private async currentKey(row: DataProtection, kid: string): Promise<Buffer> {
    const configured = this.config.dataEncryption.key;
    if (configured) return configured;
    const embedded = await this.embeddedKey();
    if (embedded) return embedded;
    if (row.generatedKey) return Buffer.from(row.generatedKey, 'base64');
    throw new Error(
      'DATA_ENCRYPTION_KEY is not set and this database holds no key made for it' +
        fixedKeyHint(kid),
    );
  }

  /** Beside the embedded data directory, mode 0600: the embedded default's key (docs/privacy.md). */
  private embeddedKeyPath(): string | undefined {
    const dir = this.config.pgliteDataDir;
    if (this.config.databaseUrl || this.config.isProduction || dir.includes('://'))
      return undefined;
    return `${resolve(dir)}.data-key`;
  }

  /** The embedded store's key file when there is one, never made (a key is configured). */
  private async existingEmbeddedKey(): Promise<Buffer[]> {
    const path = this.embeddedKeyPath();
    const key = path ? await readKeyFile(path) : undefined;
    return key ? [key] : [];
  }

  private async embeddedKey(): Promise<Buffer | undefined> {
    const path = this.embeddedKeyPath();
    if (!path) return undefined;
    const existing = await readKeyFile(path);
    if (existing) return existing;
    const key = randomBytes(32);
    await mkdir(dirname(path), { recursive: true });
    // Another instance (or anyone) made one since the read: theirs is read, and checked, instead.
    if (!(await createKeyFile(path, key))) return readKeyFile(path);
    this.logger.warn(
      `DATA_ENCRYPTION_KEY is not set: made a key for the embedded data in ${path} (mode 0600)`,
    );
    return key;
  }

  private openLegacy(stored: string): Buffer {
    for (const master of this.known.values()) {
      try {
        return openLegacySecret(master, stored);
      } catch {
        // Not this key: the format names none, so each known key is tried.
      }
    }
    throw new Error('a secret no known key opens');
  }
}

/** The one-time way for a data store written under the fixed development key (docs/privacy.md). */
function fixedKeyHint(kid: string): string {
  if (kid !== FIXED_DEVELOPMENT_KEY_ID) return '';
  return (
    '. This data was written under the fixed development key of earlier releases, which is no ' +
    'longer accepted: to keep it, set DATA_ENCRYPTION_KEY to a new key and ' +
    'DATA_ENCRYPTION_PREVIOUS_KEYS to the old fixed key once, run data:rekey, then remove the ' +
    'previous key (docs/privacy.md, "Keys")'
  );
}
