import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { Repository } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { DataKeyring } from './data-keyring';
import { KEY_CHECK } from './data-keyring.check';
import type { DataProtection } from './data-protection.entity';
import { keyId, unwrap, wrap, wrappedBy } from './personal-data.crypto';

/** The one `data_protection` row, in memory: what the keyring reads and inserts. */
class FakeRows {
  row: DataProtection | null = null;
  /** Whether data_keys holds a row. */
  sealed = false;
  manager = { query: () => Promise.resolve(this.sealed ? [{ '?column?': 1 }] : []) };
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
  production?: boolean;
}

const clock = { now: () => new Date() } as never;

function keyring(rows: FakeRows, s: Setup): DataKeyring {
  const config = {
    dataEncryption: { key: s.key, previousKeys: s.previousKeys ?? [] },
    databaseUrl: s.dataDir ? undefined : 'postgres://db/x',
    pgliteDataDir: s.dataDir ?? './.data/pglite',
    isProduction: s.production ?? false,
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
    // Keyed by the boot's AuditChainStarts, which is not part of this spec.
    expect(first.chainKeyed).toBe(false);
    const mac = first.auditMac('link');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    // As a release before the keyed chain left it: its check says so, and no audit key.
    rows.row!.keyCheck = wrap(a, Buffer.from(KEY_CHECK.plainChain));
    rows.row!.auditKey = null;
    const upgraded = await boot(rows, { key: b, previousKeys: [a] });
    expect(wrappedBy(rows.row!.auditKey!)).toBe(keyId(a));
    const mac2 = upgraded.auditMac('link');
    expect(mac2).not.toBe(mac);
    expect(upgraded.chainKeyed).toBe(false);
    expect((await boot(rows, { key: a })).auditMac('link')).toBe(mac2);
  });

  it('refuses to make an audit key again where the sealed check says the chain is keyed', async () => {
    const rows = new FakeRows();
    const k = await boot(rows, { key: a });
    const manager = {
      update: (_e: unknown, _id: number, patch: Partial<DataProtection>) =>
        Promise.resolve(Object.assign(rows.row!, patch)),
    };
    await k.markChainKeyed(manager as never);
    expect(unwrap(a, rows.row!.keyCheck).toString()).toBe(KEY_CHECK.keyedChain);
    rows.row!.auditKey = null;
    await expect(boot(rows, { key: a })).rejects.toThrow(/holds no audit key/);
  });

  it("reads no key from the row's generated_key in production: whoever writes the row chose it", async () => {
    const rows = new FakeRows();
    await boot(rows, { key: a });
    const theirs = randomBytes(32);
    Object.assign(rows.row!, {
      generatedKey: theirs.toString('base64'),
      keyCheck: wrap(theirs, Buffer.from(KEY_CHECK.keyedChain)),
      searchKey: wrap(theirs, randomBytes(32)),
      auditKey: wrap(theirs, randomBytes(32)),
    });
    await expect(boot(rows, { key: a, production: true })).rejects.toThrow(/cannot read/);
  });

  it('makes no new key row beside sealed data: the row was removed by hand', async () => {
    const rows = new FakeRows();
    rows.sealed = true;
    await expect(boot(rows, { key: a })).rejects.toThrow(/data_protection has no row/);
    expect(rows.row).toBeNull();
  });

  describe('the key file beside the embedded data, trusted only when it is our own', () => {
    const chosen = randomBytes(32).toString('base64');
    const cases: [string, (file: string) => void, RegExp][] = [
      [
        'a symbolic link (to a 0644 file holding a chosen key)',
        (file) => {
          writeFileSync(join(dir, 'theirs'), chosen, { mode: 0o644 });
          chmodSync(join(dir, 'theirs'), 0o644);
          symlinkSync(join(dir, 'theirs'), file);
        },
        /is a symbolic link/,
      ],
      [
        'readable by group or others',
        (file) => {
          writeFileSync(file, chosen);
          chmodSync(file, 0o640);
        },
        /open to group or others \(mode 0640\)/,
      ],
      ['3 bytes, not a key', (file) => writeFileSync(file, 'abc', { mode: 0o600 }), /not a key/],
    ];
    if (process.getuid?.() === 0) {
      cases.push([
        'made first by another user',
        (file) => {
          writeFileSync(file, chosen, { mode: 0o600 });
          chownSync(file, 65534, 65534);
        },
        /is owned by uid 65534/,
      ]);
    }

    it.each(cases)('refuses one that is %s, naming the file', async (_name, plant, why) => {
      const dataDir = join(dir, 'pglite');
      const file = `${dataDir}.data-key`;
      plant(file);
      for (const key of [undefined, a]) {
        const failure = boot(new FakeRows(), { dataDir, key });
        await expect(failure).rejects.toThrow(why);
        await expect(failure).rejects.toThrow(file);
      }
    });

    it('makes a new one only where nothing is: never writes through a dangling link', async () => {
      const dataDir = join(dir, 'pglite');
      symlinkSync(join(dir, 'nowhere'), `${dataDir}.data-key`);
      await expect(boot(new FakeRows(), { dataDir })).rejects.toThrow(/is a symbolic link/);
      expect(() => statSync(join(dir, 'nowhere'))).toThrow();
    });
  });

  it('refuses data under the fixed development key of earlier releases, naming the one-time way', async () => {
    // That key is public (docs/privacy.md): whoever writes the database could wrap a check under it.
    const fixed = Buffer.from('vJDfV5ENVjoDDvj2+8GUhmA7FnACCAKQSV0Nll7Uwhs=', 'base64');
    const rows = new FakeRows();
    rows.row = {
      id: 1,
      keyCheck: wrap(fixed, Buffer.from('device-care data protection check v1')),
      searchKey: wrap(fixed, randomBytes(32)),
      auditKey: null,
      generatedKey: null,
      updatedAt: new Date(),
    };
    for (const s of [{ key: a }, {}, { dataDir: join(dir, 'pglite') }]) {
      const failure = boot(rows, s);
      await expect(failure).rejects.toThrow(/fixed development key/);
      await expect(failure).rejects.toThrow(/DATA_ENCRYPTION_PREVIOUS_KEYS.*data:rekey/);
    }
    const k = await boot(rows, { key: a, previousKeys: [fixed] });
    expect(k.currentKeyId).toBe(keyId(a));
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
    // The text it had (not keyed yet here: no AuditChainStarts in this spec).
    expect(unwrap(a, rows.row!.keyCheck).toString()).toBe(KEY_CHECK.plainChain);
    expect(wrappedBy(rows.row!.auditKey!)).toBe(keyId(a));
    expect(rows.row!.generatedKey).toBeNull();
    expect(await k.rewrapCheck(manager as never)).toBe(false);
    expect((await boot(rows, { key: a })).currentKeyId).toBe(keyId(a));
    expect((await boot(rows, { key: a })).auditMac('link')).toBe(mac);
  });
});
