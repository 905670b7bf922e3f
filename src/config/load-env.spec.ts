import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnv } from './load-env';
import { validateEnv } from './env.validation';

describe('readEnv', () => {
  const names = ['DATABASE_URL', 'PGLITE_DATA_DIR'];
  const saved = names.map((n) => process.env[n]);
  const cwd = process.cwd();

  beforeEach(() => {
    names.forEach((n) => delete process.env[n]);
    process.chdir(mkdtempSync(join(tmpdir(), 'load-env-')));
  });
  afterAll(() => {
    process.chdir(cwd);
    names.forEach((n, i) =>
      saved[i] === undefined ? delete process.env[n] : (process.env[n] = saved[i]),
    );
  });

  const validated = () => validateEnv(readEnv());

  it('gives the defaults without any setting', () => {
    expect(validated()).toMatchObject({ PGLITE_DATA_DIR: '.data/pglite', DATABASE_URL: undefined });
  });

  it('reads .env, and leaves process.env as it was', () => {
    writeFileSync('.env', 'DATABASE_URL=postgres://db/x\n');
    expect(validated().DATABASE_URL).toBe('postgres://db/x');
    expect(process.env.DATABASE_URL).toBeUndefined();
  });

  it('lets the environment win over .env, where an empty DATABASE_URL means unset', () => {
    writeFileSync('.env', 'DATABASE_URL=postgres://db/x\nPGLITE_DATA_DIR=/from/file\n');
    process.env.DATABASE_URL = '';
    expect(validated()).toMatchObject({ DATABASE_URL: undefined, PGLITE_DATA_DIR: '/from/file' });
  });
});
