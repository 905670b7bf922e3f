import { createServer, Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { AppConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { DeliveryWake } from '../../src/outgoing-webhook/outbox/delivery-wake.service';
import { EventOutbox } from '../../src/outgoing-webhook/outbox/event-outbox.service';
import type { PersonalData } from '../../src/personal-data/personal-data.service';
import { wrap } from '../../src/personal-data/personal-data.crypto';
import { newWebhookSecret } from '../../src/outgoing-webhook/endpoints/outgoing-webhook-secrets';
import { ServerProcess, spawnServer } from '../support/server-process';
import { embeddedRun, testDatabaseUrl } from '../support/test-app';
import { TEST_DATA_KEY } from '../support/test-keys';
import { recordFigure } from './support/figures';
import { percentile, sleep } from './support/rel';

const EVENTS = 500;
const PER_TRANSACTION = 10;
const KEY = Buffer.from(TEST_DATA_KEY, 'base64');

/**
 * The integrator: answers every delivery after a short random pause (so two attempts of one event
 * would overlap, were they made at once), and counts per webhook-id the requests in flight at once
 * and in all.
 */
class CountingReceiver {
  readonly total = new Map<string, number>();
  readonly inFlight = new Map<string, number>();
  readonly firstAt = new Map<string, number>();
  maxConcurrentSameId = 0;
  /** Requests open at once, any id: the per-endpoint cap, across both instances. */
  open = 0;
  maxOpen = 0;
  badSignatures = 0;
  private server?: Server;
  constructor(private readonly secret: string) {}

  async start(): Promise<this> {
    const verifier = new Webhook(this.secret);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          verifier.verify(body, req.headers as Record<string, string>);
        } catch {
          this.badSignatures++;
        }
        if (!this.firstAt.has(id)) this.firstAt.set(id, Date.now());
        this.total.set(id, (this.total.get(id) ?? 0) + 1);
        const now = (this.inFlight.get(id) ?? 0) + 1;
        this.inFlight.set(id, now);
        this.maxConcurrentSameId = Math.max(this.maxConcurrentSameId, now);
        this.maxOpen = Math.max(this.maxOpen, ++this.open);
        setTimeout(() => {
          this.open--;
          this.inFlight.set(id, (this.inFlight.get(id) ?? 1) - 1);
          res.writeHead(204).end();
        }, Math.random() * 30);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return this;
  }

  get url(): string {
    const address = this.server?.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** The instance's `delivered` count from its /metrics. */
async function deliveredBy(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = /^outgoing_webhook_deliveries_total\{outcome="delivered"\} (\d+)/m.exec(text);
  return line ? Number(line[1]) : 0;
}

// Two processes share a database only on a PostgreSQL server (an embedded one is one process's).
(embeddedRun() ? describe.skip : describe)(
  'outgoing webhooks: two instances on one database',
  () => {
    const secret = newWebhookSecret();
    const receiver = new CountingReceiver(secret);
    let servers: ServerProcess[] = [];
    let db: DataSource;
    beforeAll(async () => {
      await receiver.start();
      const config = AppConfig.fromEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
      db = await new DataSource(dataSourceOptions(config, testDatabaseUrl(), false)).initialize();
      const env = { DATA_ENCRYPTION_KEY: KEY.toString('base64') };
      // Both kept for afterAll even when one fails to boot.
      const booted = await Promise.allSettled([spawnServer(env), spawnServer(env)]);
      servers = booted.flatMap((b) => (b.status === 'fulfilled' ? [b.value] : []));
      for (const b of booted) if (b.status === 'rejected') throw b.reason;
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.cleanup()));
      await db?.destroy();
      await receiver.stop();
    });

    it('delivers every one of 500 events, never the same one twice at once', async () => {
      const [org] = await db.query<{ id: string }[]>(
        `INSERT INTO organizations (name, created_at) VALUES ('Two instances', now()) RETURNING id`,
      );
      await db.query(
        `INSERT INTO webhook_endpoints (org_id, url, event_types, enabled, secret_encrypted, created_at)
        VALUES ($1, $2, ARRAY['device.registered'], true, $3, now())`,
        [org.id, receiver.url, wrap(KEY, Buffer.from(secret))],
      );
      // The service's own outbox, in transactions of this process: neither instance is woken by
      // the commit, both find the deliveries by polling and race for them.
      const outbox = new EventOutbox(
        new Clock(),
        AppConfig.fromEnv({ NODE_ENV: 'test' }),
        new DeliveryWake(),
        // Device events carry no personal data: nothing here is sealed.
        {
          seal: () => {
            throw new Error('device events are not sealed');
          },
        } as unknown as PersonalData,
        db,
      );
      const committedAt = new Map<string, number>();
      const t0 = Date.now();
      for (let i = 0; i < EVENTS / PER_TRANSACTION; i++) {
        const ids = await db.transaction(async (m) => {
          const out: string[] = [];
          for (let j = 0; j < PER_TRANSACTION; j++) {
            const n = i * PER_TRANSACTION + j;
            const data = {
              device_id: `rel-${n}`,
              org_id: org.id,
              model: 'hub-2',
              provider: 'acme',
            };
            out.push(await outbox.record(m, { type: 'device.registered', orgId: org.id, data }));
          }
          return out;
        });
        const at = Date.now();
        for (const id of ids) committedAt.set(id, at);
        await sleep(50);
      }
      // Bounded: on a loaded box the last ones may take a while; a miss shows in the figures.
      for (let waited = 0; receiver.firstAt.size < EVENTS && waited < 120_000; waited += 100) {
        await sleep(100);
      }
      // Settle: the instances record the last outcomes just after the receiver answers.
      await sleep(1500);
      const [{ delivered }] = await db.query<{ delivered: string }[]>(
        `SELECT count(*) FILTER (WHERE d.status = 'delivered') AS delivered FROM webhook_deliveries d
        JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.org_id = $1`,
        [org.id],
      );
      const took = Date.now() - t0;
      const counts = [...receiver.total.values()];
      const duplicates = counts.filter((c) => c > 1).length;
      const lags = [...committedAt].map(([id, at]) => (receiver.firstAt.get(id) ?? NaN) - at);
      const byInstance = await Promise.all(servers.map(deliveredBy));
      recordFigure(
        'Outgoing webhooks',
        `2 instances (processes) on one PostgreSQL, ${EVENTS} events: received / recorded delivered / lost`,
        `${receiver.firstAt.size} / ${delivered} / ${EVENTS - receiver.firstAt.size}`,
        `${EVENTS} / ${EVENTS} / 0`,
      );
      recordFigure(
        'Outgoing webhooks',
        'same event in flight twice at once (max concurrent requests per webhook-id)',
        receiver.maxConcurrentSameId,
        '1',
      );
      recordFigure(
        'Outgoing webhooks',
        'requests open at once to the one endpoint, both instances together (max)',
        receiver.maxOpen,
        '4 (the per-endpoint cap; soft only in rare races)',
      );
      recordFigure(
        'Outgoing webhooks',
        'events received more than once (at-least-once: only after a lease expiry)',
        duplicates,
        'reported (0 without a crash or a stall)',
      );
      recordFigure(
        'Outgoing webhooks',
        'delivered by instance A / B; bad signatures',
        `${byInstance.join(' / ')}; ${receiver.badSignatures}`,
        'both take part; 0',
      );
      recordFigure(
        'Outgoing webhooks',
        'commit to first attempt, polled by 2 instances: p50 / p99 / all received after',
        `${percentile(lags, 50)} / ${percentile(lags, 99)} / ${took} ms`,
        'p99 a few seconds (one endpoint: 4 attempts at a time)',
      );
      expect(receiver.firstAt.size).toBe(EVENTS);
      expect(Number(delivered)).toBe(EVENTS);
      expect(receiver.maxConcurrentSameId).toBe(1);
      expect(receiver.maxOpen).toBeLessThanOrEqual(4);
      expect(receiver.badSignatures).toBe(0);
    });
  },
);
