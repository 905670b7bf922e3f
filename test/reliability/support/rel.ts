import { Writable } from 'node:stream';
import { PARAMS_PROVIDER_TOKEN, Params } from 'nestjs-pino';
import { loggerOptions } from '../../../src/common/logging/logger.options';
import type { TestApp, TestAppOptions } from '../../support/test-app';
import { testConfig } from '../../support/test-app';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route Express knows, as [METHOD, path] (as the auth-protections e2e test reads them). */
export function routes(t: TestApp): [string, string][] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods).map((m): [string, string] => [
          m.toUpperCase(),
          layer.route!.path,
        ])
      : [],
  );
}

/** Limits high enough that a load or fuzz loop from 127.0.0.1 reaches the code behind them. */
export const HIGH_LIMITS = {
  RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000000',
  RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
  RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '1000000',
};

/** Every pino line the app writes (requests and application logs), at trace level. */
export function capturedLogs(env: Record<string, string> = {}): {
  lines: string[];
  options: Pick<TestAppOptions, 'override'>;
} {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const { pinoHttp } = loggerOptions(testConfig({ ...env, LOG_LEVEL: 'trace' }), false);
  const params: Params = { pinoHttp: [pinoHttp as object, sink] };
  return {
    lines,
    options: { override: (b) => b.overrideProvider(PARAMS_PROVIDER_TOKEN).useValue(params) },
  };
}

/** Percentile of a list of numbers (nearest rank); 0 for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` at a steady rate until `until()` is true or `maxMs` has passed; bounded, and it
 * waits for every started task before it returns.
 */
export async function steadyLoad(
  perSecond: number,
  maxMs: number,
  task: (i: number) => Promise<void>,
  until: () => boolean = () => false,
): Promise<number> {
  const started: Promise<void>[] = [];
  const t0 = Date.now();
  const interval = 1000 / perSecond;
  for (let i = 0; Date.now() - t0 < maxMs && !until(); i++) {
    started.push(task(i));
    const next = t0 + (i + 1) * interval;
    await sleep(Math.max(0, next - Date.now()));
  }
  await Promise.all(started);
  return started.length;
}
