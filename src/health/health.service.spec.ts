import type { DataSource } from 'typeorm';
import type { OidcDiscovery } from '../auth/sign-in/oidc-discovery.service';
import { Drain } from '../common/lifecycle/drain';
import type { AppConfig } from '../config/app-config';
import { HealthService } from './health.service';

/** A DataSource whose driver's pg pool answers the ping with `query`; no pool when undefined. */
function health(query?: () => Promise<unknown>): HealthService {
  const driver = { master: query && { query } };
  const dataSource = { isInitialized: true, driver } as unknown as DataSource;
  const config = { version: '1.2.3' } as AppConfig;
  return new HealthService(dataSource, config, {} as OidcDiscovery, new Drain());
}

const up = { status: 'ok', checks: { database: 'up' }, version: '1.2.3' };
const down = { status: 'error', checks: { database: 'down' }, version: '1.2.3' };

describe('HealthService: the ping through the pg pool', () => {
  afterEach(() => jest.useRealTimers());

  it('is up when the pool answers SELECT 1', async () => {
    const query = jest.fn(() => Promise.resolve({ rows: [{ '?column?': 1 }] }));
    await expect(health(query).check()).resolves.toEqual(up);
    expect(query).toHaveBeenCalledWith('SELECT 1');
  });

  it('is down when the query fails, or when the driver has no pool (not yet, or closed)', async () => {
    const refused = () => Promise.reject(new Error('connect ECONNREFUSED'));
    await expect(health(refused).check()).resolves.toEqual(down);
    await expect(health().check()).resolves.toEqual(down);
  });

  it('is down after 1.5 s when the query hangs (a database gone without a word)', async () => {
    jest.useFakeTimers();
    const report = health(() => new Promise(() => undefined)).check();
    let settled = false;
    void report.then(() => (settled = true));
    await jest.advanceTimersByTimeAsync(1499);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await expect(report).resolves.toEqual(down);
  });
});
