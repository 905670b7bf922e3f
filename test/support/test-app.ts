import { randomBytes } from 'node:crypto';
import type { ModuleMetadata } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp, createHttpAdapter } from '../../src/app.setup';
import { AppConfig } from '../../src/config/app-config';
import { EmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { answersAsDocumented } from './documented-answers';
import { sharedIdentityProvider } from './identity-provider';
import { TEST_DATA_KEY } from './test-keys';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  /** A supertest agent on the app's HTTP server; each JSON answer is checked against the API document. */
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables for this app, on top of the test defaults. */
  env?: Record<string, string>;
  /** Extra controllers or providers a test needs beside the real app. */
  extra?: Pick<ModuleMetadata, 'controllers' | 'providers' | 'imports'>;
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/** The run's databases are the shipped embedded server (global-setup.ts), not PostgreSQL. */
export function embeddedRun(): boolean {
  return process.env.E2E_DATABASE_KIND === 'pglite';
}

/**
 * On an embedded run, apps boot as on the embedded default (no DATABASE_URL: a pool of one,
 * queries queue for it), their EmbeddedPostgres handing out the worker's server instead of its own.
 */
const runEmbeddedServer: Pick<EmbeddedPostgres, 'start' | 'stop' | 'onApplicationShutdown'> = {
  start: () => Promise.resolve(testDatabaseUrl()),
  stop: () => Promise.resolve(),
  onApplicationShutdown: () => Promise.resolve(),
};

/** This Jest worker's database (global-setup.ts makes one per worker). */
export function testDatabaseUrl(): string {
  const urls = process.env.E2E_DATABASE_URLS;
  if (!urls)
    throw new Error('E2E_DATABASE_URLS is not set: run e2e specs through jest (globalSetup)');
  const list = JSON.parse(urls) as string[];
  // 1 to maxWorkers; also 1 when Jest runs the files in its own process.
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return list[(worker - 1) % list.length];
}

/** The test defaults plus overrides, as the app would read them from the environment. */
export function testConfig(
  env: Record<string, string> = {},
  identityProvider: Record<string, string> = {},
): AppConfig {
  return AppConfig.fromEnv(
    {
      ...identityProvider,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      // An app given its own DATABASE_URL (a proxy, an empty database) gets a pool of one too.
      ...(embeddedRun()
        ? { DATABASE_POOL_SIZE: '1' }
        : { DATABASE_URL: testDatabaseUrl(), DATABASE_POOL_SIZE: '4' }),
      DEVICE_TOKEN_SECRET: 'test-device-token-secret-0123456789abcdef',
      // The run's databases are shared by a worker's specs: one key for all (docs/privacy.md).
      DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
      // CI runs the suite again with Redis; a prefix per app keeps every app's counters its own.
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
      REDIS_KEY_PREFIX: `t${randomBytes(6).toString('hex')}:`,
      // Tests sign in many accounts from 127.0.0.1; the login limit has its own test.
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
      ...env,
    },
    'test',
  );
}

/** Boots the real app (same modules, same HTTP setup as main.ts) on the run's test database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // Sign-in trusts the file's local identity provider unless a test says otherwise.
  const config = testConfig(options.env, (await sharedIdentityProvider()).env());
  let builder = Test.createTestingModule({
    imports: [AppModule, ...(options.extra?.imports ?? [])],
    controllers: options.extra?.controllers ?? [],
    providers: options.extra?.providers ?? [],
  })
    .overrideProvider(AppConfig)
    .useValue(config);
  if (!config.databaseUrl)
    builder = builder.overrideProvider(EmbeddedPostgres).useValue(runEmbeddedServer);
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(config), {
    bodyParser: false,
    logger: false,
  });
  configureApp(app);
  await app.init();
  return {
    app,
    config,
    http: () => checkedAgainstDocument(request(app.getHttpServer())),
    close: () => app.close(),
  };
}

type Agent = ReturnType<typeof request>;
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options']);

/**
 * The agent with one more assertion on every request it starts (documented-answers.ts): a JSON
 * answer the OpenAPI document does not describe fails the request, whatever else the test expects.
 */
function checkedAgainstDocument(agent: Agent): Agent {
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const start = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !METHODS.has(prop) || typeof start !== 'function') {
        return start;
      }
      const method = prop === 'del' ? 'delete' : prop;
      return (url: string) =>
        (start as (url: string) => request.Test)
          .call(target, url)
          .expect(answersAsDocumented(method, url));
    },
  });
}
