import type { Type } from '@nestjs/common';
import fc from 'fast-check';
import { processorEnv, recordOf } from './checkout';
import { createPendingSubscription } from './factories';
import { checkoutCompletedEvent, sign } from './processor-events';
import { FakeProcessor } from './fake-processor';
import {
  anyString,
  expectRightAnswer,
  FuzzRoute,
  fuzzRoutes,
  fuzzSeed,
  sendSigned,
} from './input-fuzz';
import { optionalFields } from '../../src/input-dtos.test-data';
import { appRoutes, routes } from './routes';
import { newFulfilmentOrgId } from './subscriptions';
import { createTestApp, TestApp } from './test-app';
import { deliver, WEBHOOK_ENV } from './webhook';

/** Routes that read nothing a client writes but the cookie (which is only ever hashed). */
const NO_CLIENT_TEXT = [
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'POST /api/auth/sessions/revoke-others',
];

/** What the signed layer sent and how many answers were 5xx, for the reliability table. */
export interface SignedLayerFigures {
  count: number;
  fiveXx: number;
}

/** The fuzz of every route's text; `seed` is printed, so a failing run can be replayed with FUZZ_SEED. */
export function describeInputFuzz(
  defaultSeed: number,
  runsPerRoute: number,
  reportSignedLayer?: (figures: SignedLayerFigures) => void,
): void {
  const SEED = fuzzSeed(defaultSeed);
  // Every route, every field, RUNS strings each: ~15 s alone, more beside other specs on 2 cores;
  // a generous limit, since this test checks answers, not speed.
  const FUZZ_TIMEOUT_MS = 120_000;
  const RUNS = runsPerRoute;
  describe('any string JSON can carry, in any field of any route', () => {
    let t: TestApp;
    let fake: FakeProcessor;
    let table: FuzzRoute[];

    beforeAll(async () => {
      fake = await new FakeProcessor().start();
      t = await createTestApp({
        env: {
          ...processorEnv(fake.url),
          ...WEBHOOK_ENV,
          FULFILMENT_ORG_ID: newFulfilmentOrgId(),
          RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000000',
          RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
          RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '1000000',
        },
      });
      table = await fuzzRoutes(t);
    });
    afterAll(async () => {
      await t?.close();
      await fake?.stop();
    });

    it('covers every route that takes a body or a path value', () => {
      const covered = new Set(table.map((r) => `${r.method} ${r.pattern}`));
      const reading = routes(t)
        .filter(([method, path]) => method !== 'GET' || path.includes(':'))
        .map(([method, path]) => `${method} ${path}`)
        .filter((r) => !NO_CLIENT_TEXT.includes(r));
      expect(reading.filter((r) => !covered.has(r))).toEqual([]);
    });

    it(
      'answers 2xx or 4xx, never 5xx, and 400 naming the field for text that cannot be stored',
      async () => {
        for (const route of table) {
          await fc.assert(
            fc.asyncProperty(fc.constantFrom(...route.fields), anyString, async (field, value) => {
              expectRightAnswer(route, field, value, await route.send(field, value));
            }),
            { seed: SEED, numRuns: RUNS, endOnFailure: true },
          );
        }
      },
      FUZZ_TIMEOUT_MS,
    );

    it('signed layer: every mutation, also sent validly signed, answers 200 or 400, never 5xx', async () => {
      const subscription = await createPendingSubscription(t.app);
      const figures: SignedLayerFigures = { count: 0, fiveXx: 0 };
      const wrong: string[] = [];
      for (const route of table) {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...route.fields),
            anyString,
            fc.integer({ min: 1, max: 3000 }),
            async (field, value, depth) => {
              const statuses = await sendSigned(t, subscription.id, field, value, depth);
              figures.count += statuses.length;
              figures.fiveXx += statuses.filter((s) => s >= 500).length;
              if (statuses.some((s) => s !== 200 && s !== 400)) {
                wrong.push(`${route.pattern} ${field} depth ${depth}: ${statuses.join(',')}`);
              }
            },
          ),
          { seed: SEED, numRuns: Math.max(1, Math.ceil(RUNS / 5)) },
        );
      }
      reportSignedLayer?.(figures);
      expect(wrong).toEqual([]);
      expect(figures.fiveXx).toBe(0);
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('type');
    });

    it('names the field for NUL and for each kind of unpaired surrogate, on every body route', async () => {
      for (const route of table.filter((r) => r.method !== 'GET' && !r.fields.includes('path'))) {
        for (const field of route.fields) {
          for (const value of ['a\u0000b', '\uD83D', 'x\uDE00', '\uDE00\uD83D']) {
            expectRightAnswer(route, field, value, await route.send(field, value));
          }
        }
      }
    });

    // Found by a hostile client: null in an optional field reached services as a value (500).
    it('answers null in every optional field of every body DTO with 400 naming it', async () => {
      const dtos = new Map<string, Type>(
        appRoutes(t).flatMap((r) =>
          r.bodyDto ? [[`${r.method.toUpperCase()} ${r.path}`, r.bodyDto] as const] : [],
        ),
      );
      const tried = new Set<string>();
      const wrong: string[] = [];
      for (const route of table.filter((r) => r.method !== 'GET' && !r.fields.includes('path'))) {
        const key = `${route.method} ${route.pattern}`;
        const dto = dtos.get(key);
        if (!dto) continue;
        tried.add(key);
        for (const field of optionalFields(dto)) {
          const res = await route.send(field, null);
          const named = ((res.body.errors ?? []) as { field: string }[]).map((e) => e.field);
          if (res.status !== 400 || res.body.code !== 'validation_failed' || !named.includes(field))
            wrong.push(`${key} ${field}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        }
      }
      expect(wrong).toEqual([]);
      // Every body DTO with an optional field was sent one: a new route needs a row in the table.
      const untried = [...dtos].filter(([k, dto]) => !tried.has(k) && optionalFields(dto).length);
      expect(untried.map(([k]) => k)).toEqual([]);
    });

    it("stores a signed event's unstorable text cleaned, never refusing the event", async () => {
      const subscription = await createPendingSubscription(t.app);
      const event = checkoutCompletedEvent(subscription.id, {
        customer_details: { email: 'dana@example.com', name: 'Da\u0000na \uD800', phone: null },
      });
      const payload = JSON.stringify(event);
      await deliver(t, payload, sign(payload)).expect(200);
      const row = await recordOf(t, subscription.id);
      expect([row.status, row.customerName]).toEqual(['paid', 'Dana \uFFFD']);
    });
  });
}
