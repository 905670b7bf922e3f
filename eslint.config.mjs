// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * Each JWT library has one job (CONTRACT.md section 1, ARCHITECTURE.md): `jsonwebtoken` makes the
 * device bearer (device/tokens/device-token.jwt.ts) and `passport-jwt` checks it
 * (device/tokens/device-jwt.strategy.ts); `jose` is for ID tokens and device assertions, its functions
 * loaded only through joseLib() (common/jwt/jose.ts). Types may be imported anywhere.
 */
const JWT_LIBRARIES = [
  {
    name: 'jose',
    allowTypeImports: true,
    message: 'jose (ID tokens, device assertions) is loaded through joseLib(), common/jwt/jose.ts.',
  },
  {
    name: 'jsonwebtoken',
    allowTypeImports: true,
    message: 'jsonwebtoken signs the device bearer only, in device/tokens/device-token.jwt.ts.',
  },
  {
    name: 'passport-jwt',
    message: 'passport-jwt checks the device bearer only, in device/tokens/device-jwt.strategy.ts.',
  },
];
/**
 * One rule for null in every DTO (docs/api.md#null): a field that may be left out takes
 * `@IsOmittable()`, not class-validator's `@IsOptional()`, which lets null through. config/ keeps
 * it: the environment holds strings or nothing, never null.
 */
const OPTIONAL_RULE = {
  name: 'class-validator',
  importNames: ['IsOptional'],
  message:
    'Use IsOmittable (common/validation/omittable.decorator.ts): null is refused, not skipped.',
};
/** The rule for a file that may use `allowed` (none: the rest of src). */
const restrictedImports = (allowed) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: [...JWT_LIBRARIES, OPTIONAL_RULE].filter((lib) => lib.name !== allowed),
    },
  ],
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'console/dist/**',
      'coverage/**',
      'node_modules/**',
      '.data/**',
      '*.js',
      '*.mjs',
      '.ci/**',
      'bench/*.js',
      // The bench's references compiled for a run (bench/reference-build.ts).
      'bench/.reference/**',
      // Plain CommonJS that runs on any Node (the check of which Node runs the npm scripts).
      'scripts/*.js',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through AppConfig.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['*/dist/*', '@*/*/dist/*'],
              message: "Import a package's public entry, not its dist/ internals.",
            },
          ],
        },
      ],
    },
  },
  { files: ['src/**/*.ts'], ignores: ['src/**/*.spec.ts'], rules: restrictedImports() },
  { files: ['src/device/tokens/device-token.jwt.ts'], rules: restrictedImports('jsonwebtoken') },
  { files: ['src/device/tokens/device-jwt.strategy.ts'], rules: restrictedImports('passport-jwt') },
  {
    files: ['src/config/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: restrictedImports('class-validator'),
  },
  {
    // The plans page's browser script: plain ES5 for any browser, no type information.
    files: ['src/plans/public/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        Intl: 'readonly',
      },
    },
  },
  {
    // readEnv (config/load-env.ts) is the service's one reader of the environment; tests and benchmarks set up their own.
    files: ['src/config/load-env.ts', 'src/**/*.spec.ts', 'test/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.spec.ts', 'test/**'],
    rules: {
      // supertest bodies are `any` by design; assertions on them are checked at run time.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);
