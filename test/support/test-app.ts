import { randomBytes } from 'node:crypto';
import type { ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp, createHttpAdapter } from '../../src/app.setup';
import { AppConfig } from '../../src/config/app-config';
import { sharedIdentityProvider } from './identity-provider';

export interface TestApp {
  app: NestFastifyApplication;
  /** Every route the server registered, as [METHOD, path]. */
  routes: [string, string][];
  config: AppConfig;
  /** A supertest agent on the app's HTTP server. */
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

export function testDatabaseUrl(): string {
  const url = process.env.E2E_DATABASE_URL;
  if (!url)
    throw new Error('E2E_DATABASE_URL is not set: run e2e specs through jest (globalSetup)');
  return url;
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
      DATABASE_URL: testDatabaseUrl(),
      DATABASE_POOL_SIZE: '4',
      DEVICE_TOKEN_SECRET: 'test-device-token-secret-0123456789abcdef',
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
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config), {
    bodyParser: false,
    logger: false,
  });
  const routes: [string, string][] = [];
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', ({ method, url }) => {
    for (const m of [method].flat()) routes.push([m, url]);
  });
  await configureApp(app);
  await app.init();
  await fastify.ready();
  return {
    app,
    routes,
    config,
    http: () => request(app.getHttpServer()),
    close: () => app.close(),
  };
}
