import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { Repository } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { DataKeyring } from './data-keyring';
import type { DataProtection } from './data-protection.entity';
import { keyId, unwrap, wrappedBy } from './personal-data.crypto';

/** The one `data_protection` row, in memory: what the keyring reads and inserts. */
class FakeRows {
  row: DataProtection | null = null;
  findOneBy = () => Promise.resolve(this.row);
  findOneByOrFail = () => Promise.resolve(this.row!);
  createQueryBuilder = () => ({
    insert: () => ({
      values: (v: DataProtection) => ({
        orIgnore: () => ({ execute: () => Promise.resolve((this.row ??= v)) }),
      }),
    }),
    update: () => ({
      set: (patch: Partial<DataProtection>) => ({
        where: () => ({
          execute: () =>
            Promise.resolve(this.row && !this.row.auditKey && Object.assign(this.row, patch)),
        }),
      }),
    }),
  });
}

interface Setup {
  key?: Buffer;
  previousKeys?: Buffer[];
  /** Unset: a database server (DATABASE_URL). */
  dataDir?: string;
}

const clock = { now: () => new Date() } as never;

function keyring(rows: FakeRows, s: Setup): DataKeyring {
  const config = {
    dataEncryption: { key: s.key, previousKeys: s.previousKeys ?? [] },
    databaseUrl: s.dataDir ? undefined : 'postgres://db/x',
    pgliteDataDir: s.dataDir ?? './.data/pglite',
    isProduction: false,
  } as unknown as AppConfig;
  return new DataKeyring(config, clock, rows as unknown as Repository<DataProtection>);
}

const boot = async (rows: FakeRows, s: Setup) => {
  const k = keyring(rows, s);
  await k.onModuleInit();
  return k;
};

describe('DataKeyring at boot', () => {
  const [a, b] = [randomBytes(32), randomBytes(32)];
  let dir: string;
  let warn: jest.SpyInstance;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keyring-'));
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the check under the configured key on a new database, and reads it back', async () => {
    const rows = new FakeRows();
    const k = await boot(rows, { key: a });
    expect(k.currentKeyId).toBe(keyId(a));
    expect(wrappedBy(rows.row!.keyCheck)).toBe(keyId(a));
    expect(rows.row!.generatedKey).toBeNull();
    expect((await boot(rows, { key: a })).emailHash('X@Example.com')).toBe(
      k.emailHash('x@example.com'),
    );
  });

  it('stops naming DATA_ENCRYPTION_KEY when the key cannot read the check', async () => {
    const rows = new FakeRows();
    await boot(rows, { key: a });
    await expect(boot(rows, { key: b })).rejects.toThrow(/DATA_ENCRYPTION_KEY/);
  });

  it('boots with a new key when the old one is among the previous keys', async () => {
    const rows = new FakeRows();
    const old = await boot(rows, { key: a });
    const wrapped = old.wrap(Buffer.from('data key'));
    const k = await boot(rows, { key: b, previousKeys: [a] });
    expect(k.currentKeyId).toBe(keyId(b));
    expect(k.unwrap(wrapped).toString()).toBe('data key');
    expect(k.isCurrent(wrapped)).toBe(false);
  });

  it('on a database server with no key: makes one, keeps it in the row, reuses it', async () => {
    const rows = new FakeRows();
    const k = await boot(rows, {});
    const generated = Buffer.from(rows.row!.generatedKey!, 'base64');
    expect(k.currentKeyId).toBe(keyId(generated));
    expect((await boot(rows, {})).currentKeyId).toBe(keyId(generated));
    // A real key set later still reads what the generated one wrapped, until rekey.
    const wrapped = k.wrap(Buffer.from('s'));
    expect((await boot(rows, { key: a })).unwrap(wrapped).toString()).toBe('s');
  });

  it('on the embedded default with no key: a file beside the data, mode 0600, reused', async () => {
    const rows = new FakeRows();
    const dataDir = join(dir, 'pglite');
    const k = await boot(rows, { dataDir });
    const file = `${dataDir}.data-key`;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(file));
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    expect(k.currentKeyId).toBe(keyId(key));
    expect(rows.row!.generatedKey).toBeNull();
    expect(unwrap(key, rows.row!.keyCheck).length).toBeGreaterThan(0);
    expect((await boot(rows, { dataDir })).currentKeyId).toBe(keyId(key));
  });

  it("keeps the embedded file's key readable once a key is set, and makes no file then", async () => {
    const rows = new FakeRows();
    const dataDir = join(dir, 'pglite');
    const wrapped = (await boot(rows, { dataDir })).wrap(Buffer.from('s'));
    const k = await boot(rows, { dataDir, key: a });
    expect(k.unwrap(wrapped).toString()).toBe('s');
    const fresh = join(dir, 'other');
    await boot(new FakeRows(), { dataDir: fresh, key: a });
    expect(() => statSync(`${fresh}.data-key`)).toThrow();
  });

  it('refuses a key file whose key does not read the check', async () => {
    const rows = new FakeRows();
    const dataDir = join(dir, 'pglite');
    await boot(rows, { dataDir });
    writeFileSync(`${dataDir}.data-key`, randomBytes(32).toString('base64'));
    await expect(boot(rows, { dataDir })).rejects.toThrow(/DATA_ENCRYPTION_KEY/);
  });

  it('gives a database written before the audit key one, once, under the key of its check', async () => {
    const rows = new FakeRows();
    const first = await boot(rows, { key: a });
    const mac = first.auditMac('link');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    rows.row!.auditKey = null;
    const upgraded = await boot(rows, { key: b, previousKeys: [a] });
    expect(wrappedBy(rows.row!.auditKey!)).toBe(keyId(a));
    const mac2 = upgraded.auditMac('link');
    expect(mac2).not.toBe(mac);
    expect((await boot(rows, { key: a })).auditMac('link')).toBe(mac2);
  });

  it('rewrapCheck puts the check under the current key once, and drops the generated key', async () => {
    const rows = new FakeRows();
    await boot(rows, {});
    const k = await boot(rows, { key: a });
    const manager = {
      findOneBy: () => Promise.resolve(rows.row),
      update: (_e: unknown, _id: number, patch: Partial<DataProtection>) =>
        Promise.resolve(Object.assign(rows.row!, patch)),
    };
    const mac = k.auditMac('link');
    expect(await k.rewrapCheck(manager as never)).toBe(true);
    expect(wrappedBy(rows.row!.keyCheck)).toBe(keyId(a));
    expect(wrappedBy(rows.row!.auditKey!)).toBe(keyId(a));
    expect(rows.row!.generatedKey).toBeNull();
    expect(await k.rewrapCheck(manager as never)).toBe(false);
    expect((await boot(rows, { key: a })).currentKeyId).toBe(keyId(a));
    expect((await boot(rows, { key: a })).auditMac('link')).toBe(mac);
  });
});
