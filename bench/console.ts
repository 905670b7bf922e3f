/// <reference lib="dom" />
import type { BrowserContext } from 'playwright-core';
import { launchBrowser } from '../test/support/browser';
import { withBenchEnv } from './bench-env';
import { freePort, startServer, stopServer } from './procs';
import type { Target } from './report';
import { seed, SMALL, type TableSize } from './seed';
import { serviceArgs, serviceEnv } from './service-env';
import { median } from './stats';

/** An organization of 200 devices, the Devices page's one page (contract section 11). */
const CONSOLE_SIZE: TableSize = { ...SMALL, orgDevices: 200, eventIds: 0, subscriptions: 0 };
const RUNS = 5;

export interface ConsoleResult {
  /** JavaScript of the first load of /console/, as transferred (gzipped), in KB. */
  jsKb: number;
  /** Navigation start to 200 rows drawn on /console/devices, a fresh browser context each run. */
  devicesMs: number[];
}

/** Gzipped script bytes a first visit transfers, read off Chromium's own accounting. */
async function firstLoadJsKb(context: BrowserContext, base: string): Promise<number> {
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('response', (r) => {
    const request = r.request();
    if (request.resourceType() === 'script')
      sizes.push(request.sizes().then((s) => s.responseBodySize));
  });
  await page.goto(`${base}/console/`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return (await Promise.all(sizes)).reduce((a, b) => a + b, 0) / 1000;
}

/** One cold navigation: ms from navigation start to the table holding 200 rows. */
async function devicesMs(context: BrowserContext, base: string): Promise<number> {
  const page = await context.newPage();
  await page.goto(`${base}/console/devices`, { waitUntil: 'commit' });
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length >= 200, undefined, {
    polling: 'raf',
    timeout: 30_000,
  });
  return page.evaluate(() => performance.now());
}

/** The built service (dist/, console/dist/) on a fresh PostgreSQL database, measured in Chromium. */
export function consoleBench(): Promise<ConsoleResult> {
  return withBenchEnv('bench_console', async (env) => {
    const senv = serviceEnv(await freePort(), env.url, env.fake.url);
    let server = await startServer('service', serviceArgs(), senv, Number(senv.PORT), false);
    await stopServer(server); // its first boot migrated the database; seed it while it is down
    const { sessionToken } = await seed(env.url, CONSOLE_SIZE);
    server = await startServer('service', serviceArgs(), senv, Number(senv.PORT), false);
    const browser = await launchBrowser();
    try {
      const fresh = async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        await context.addCookies([
          { name: 'service_session', value: sessionToken, url: server.url, httpOnly: true },
        ]);
        return context;
      };
      const jsKb = await firstLoadJsKb(await fresh(), server.url);
      const times: number[] = [];
      for (let k = 0; k < RUNS; k++) {
        const context = await fresh();
        times.push(await devicesMs(context, server.url));
        await context.close();
      }
      return { jsKb, devicesMs: times };
    } finally {
      await browser.close();
      await stopServer(server);
    }
  });
}

export const consoleTargets = (r?: ConsoleResult): Target[] =>
  r
    ? [
        { id: 'console_js_kb', measured: r.jsKb, limit: 200, kind: 'max' },
        { id: 'console_devices_ms', measured: median(r.devicesMs), limit: 1_000, kind: 'max' },
      ]
    : [];
