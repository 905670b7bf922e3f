/**
 * The reliability suite (`npm run test:reliability`): bad input, identity attacks, webhook
 * replays, faults, scale-out, secrets and a soak. Not part of `npm test`; CI runs it on
 * PostgreSQL and Redis, beside its PostgreSQL e2e tier. Files run one at a time, so no spec's load
 * disturbs another's figures.
 */
const base = require('./jest.config.js');
const e2e = base.projects.find((p) => p.displayName === 'e2e');

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'reliability',
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/reliability/**/*.rel-spec.ts'],
  transform: e2e.transform,
  globalSetup: '<rootDir>/test/reliability/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/reliability/setup/global-teardown.ts',
  maxWorkers: 1,
  // The soak alone runs for RELIABILITY_SOAK_SECONDS (default 300).
  testTimeout: 15 * 60 * 1000,
};
