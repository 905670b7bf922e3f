/**
 * Two tiers: unit specs beside the code, and e2e specs in test/ that boot the real app on a real
 * database (PGlite in memory by default, a fresh database on TEST_DATABASE_URL's server when set).
 *
 * NestJS 12, `jose` v6 and `@noble/curves` v2 ship ES modules only. Jest 30 loads them through
 * require(esm) on Node 24.9+ with Node's VM modules (`node-options` in .npmrc), untransformed.
 */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  // Jest's default is one worker fewer than the cores: one on a 2-core machine, which then sits at
  // one busy core, as specs wait on timers, sockets and child processes much of their time. Two
  // workers there took CI's embedded run from 226 s to 135 s, as green.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      // The development stand-ins (dev-receiver/, dev-processor/) are tested beside their code too.
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/dev-*/**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
  // A global option: Jest ignores testTimeout inside a project (and warns), leaving 5 s.
  testTimeout: 30000,
  // How long a worker has to exit once its specs are done before Jest kills it and reports it as
  // leaking. Jest's 500 ms is short for a worker that loaded the app and PGlite on a busy 2-core
  // machine; a handle left open never exits, so a real leak is still reported, 5 s later.
  workerGracefulExitTimeout: 5000,
};
