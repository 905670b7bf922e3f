/**
 * Two tiers: unit specs beside the code, and e2e specs in test/ that boot the real app on a real
 * database (PGlite in memory by default, a fresh database on TEST_DATABASE_URL's server when set).
 */
const tsTransform = ['ts-jest', { tsconfig: 'tsconfig.json' }];
/**
 * `jose` v6 ships ES modules only. Node 20.19+ can require() it, Jest's module registry cannot, so
 * Jest compiles that one package to CommonJS; everything else in node_modules is left alone.
 */
const esmTransform = [
  'ts-jest',
  {
    tsconfig: { allowJs: true, module: 'commonjs', moduleResolution: 'bundler', sourceMap: false },
    isolatedModules: true,
    diagnostics: false,
  },
];
const transform = {
  '^.+\\.ts$': tsTransform,
  '/node_modules/jose/.+\\.js$': esmTransform,
};
const transformIgnorePatterns = ['/node_modules/(?!jose/)'];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      transformIgnorePatterns,
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
      testTimeout: 30000,
    },
  ],
};
