/**
 * Two tiers: unit specs beside the code, and e2e specs in test/ that boot the real app on a real
 * database (PGlite in memory by default, a fresh database on TEST_DATABASE_URL's server when set).
 */
const tsTransform = ['ts-jest', { tsconfig: 'tsconfig.json' }];
/**
 * `jose` v6 and `@noble/curves` v2 (with its `@noble/hashes`) ship ES modules only. Node 20.19+ can
 * require() them, Jest's module registry cannot, so Jest compiles those packages to CommonJS;
 * everything else in node_modules is left alone.
 */
const ESM_ONLY = '(?:jose|@noble)';
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
  [`/node_modules/${ESM_ONLY}/.+\\.js$`]: esmTransform,
};
// Also when nested (node_modules/<package>/node_modules/jose).
const transformIgnorePatterns = [`/node_modules/(?!(?:.*/node_modules/)?${ESM_ONLY}/)`];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      // The development stand-ins (dev-receiver/, dev-processor/) are tested beside their code too.
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/dev-*/**/*.spec.ts'],
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
    },
  ],
  // A global option: Jest ignores testTimeout inside a project (and warns), leaving 5 s.
  testTimeout: 30000,
};
