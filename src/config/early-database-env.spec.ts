import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { earlyDatabaseEnv } from './early-database-env';

describe('earlyDatabaseEnv', () => {
  const names = ['DATABASE_URL', 'PGLITE_DATA_DIR', 'DATABASE_POOL_SIZE'];
  const saved = names.map((n) => process.env[n]);
  const cwd = process.cwd();

  beforeEach(() => {
    names.forEach((n) => delete process.env[n]);
    process.chdir(mkdtempSync(join(tmpdir(), 'early-env-')));
  });
  afterAll(() => {
    process.chdir(cwd);
    names.forEach((n, i) =>
      saved[i] === undefined ? delete process.env[n] : (process.env[n] = saved[i]),
    );
  });

  it('gives the defaults without any setting', () => {
    expect(earlyDatabaseEnv()).toEqual({ pgliteDataDir: '.data/pglite', databasePoolSize: 10 });
  });

  it('is undefined with DATABASE_URL, from the environment or from .env', () => {
    process.env.DATABASE_URL = 'postgres://db/x';
    expect(earlyDatabaseEnv()).toBeUndefined();
    delete process.env.DATABASE_URL;
    writeFileSync('.env', 'DATABASE_URL=postgres://db/x\n');
    expect(earlyDatabaseEnv()).toBeUndefined();
  });

  it('lets the environment win over .env, where an empty DATABASE_URL means unset', () => {
    writeFileSync('.env', 'DATABASE_URL=postgres://db/x\nPGLITE_DATA_DIR=/from/file\n');
    process.env.DATABASE_URL = '';
    process.env.DATABASE_POOL_SIZE = '3';
    expect(earlyDatabaseEnv()).toEqual({ pgliteDataDir: '/from/file', databasePoolSize: 3 });
  });

  it('is undefined when the pool size is not a number (validation will say why)', () => {
    process.env.DATABASE_POOL_SIZE = 'ten';
    expect(earlyDatabaseEnv()).toBeUndefined();
  });
});
