import { performance } from 'node:perf_hooks';
import { hold, HALF_SENT_CHECKOUT, PATIENT_CLIENTS } from '../support/held-connection';
import { bootOnHostile, canChown, HOSTILE_CASES } from '../support/hostile-data-dir';
import { spawnServer } from '../support/server-process';
import { recordFigure } from './support/figures';

/**
 * What a hostile client or local user does to the process rather than the API: connections that
 * never finish a request at SIGTERM, and a data directory planted before the first boot.
 */
describe('shutdown with silent and half-sent connections', () => {
  it('exits 0 well before SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const server = await spawnServer(PATIENT_CLIENTS);
    try {
      const silent = await hold(server.url, '');
      const halfSent = await hold(server.url, HALF_SENT_CHECKOUT);
      await new Promise((r) => setTimeout(r, 500)); // the half-sent one reaches the app
      const started = performance.now();
      server.child.kill('SIGTERM');
      const code = await server.exited;
      const ms = Math.round(performance.now() - started);
      await Promise.all([silent.closed, halfSent.closed]);
      const answered = /^HTTP\/1\.1 503 /.test(halfSent.received());
      recordFigure(
        'Shutdown',
        'SIGTERM with 1 silent + 1 half-sent connection: exit status / time to exit / half-sent answered',
        `${code} / ${ms} ms / ${answered ? '503' : 'no answer'}`,
        `0 / under ${PATIENT_CLIENTS.SHUTDOWN_TIMEOUT_SECONDS} s (the 2 s grace + close) / 503`,
      );
      expect(code).toBe(0);
      expect(answered).toBe(true);
    } finally {
      await server.cleanup();
    }
  });
});

describe('a hostile embedded data directory', () => {
  it('refuses every planted case and chmods nothing outside the data directory', async () => {
    const cases = HOSTILE_CASES.filter((c) => canChown || !c.needsRoot);
    let refused = 0;
    const chmodded: string[] = [];
    for (const c of cases) {
      const outcome = await bootOnHostile(c);
      if (outcome.exitCode === 1 && c.expected.test(outcome.bootLine)) refused++;
      chmodded.push(...outcome.chmodded);
    }
    recordFigure(
      'Data directory',
      `planted cases (${cases.map((c) => c.name).join('; ')})`,
      cases.length,
      canChown ? `${HOSTILE_CASES.length} (as root)` : 'the cases a non-root run can plant',
    );
    recordFigure('Data directory', 'boots refused with the path and the fix', refused, 'all');
    recordFigure(
      'Data directory',
      'files chmodded outside the data directory',
      chmodded.length,
      '0',
    );
    expect(refused).toBe(cases.length);
    expect(chmodded).toEqual([]);
  });
});
