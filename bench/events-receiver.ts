import { createServer, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Seeded } from './seed';

/** A receiver that notes when each webhook-id first arrived; `hang`: it never answers. */
export class Receiver {
  readonly firstAt = new Map<string, number>();
  /** The body's `timestamp` (the change's time, in its transaction) of each webhook-id. */
  readonly changedAt = new Map<string, number>();
  open = 0;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  constructor(private readonly hang: boolean) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        if (!this.firstAt.has(id)) {
          this.firstAt.set(id, Date.now());
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
          this.changedAt.set(id, Date.parse(body.timestamp));
        }
        if (this.hang) {
          this.open++;
          res.on('close', () => this.open--);
          return;
        }
        res.writeHead(204).end();
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return this;
  }

  get url(): string {
    const address = this.server?.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  }

  /** Drops every open connection: the hanging attempts end as failures. */
  cut(): void {
    for (const s of this.sockets) s.destroy();
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const pct = (xs: number[], p: number) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 300_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`events bench: never happened: ${what}`);
    await sleep(20);
  }
}

/**
 * Registers devices through the API at `perS` for `count` requests; each 201 committed one event.
 * Returns how many were created; a refusal (503 when the pool is exhausted) is counted, not thrown.
 */
export async function registerDevices(
  base: string,
  seeded: Seeded,
  tag: string,
  count: number,
  perS: number,
  refused: Map<number, number>,
): Promise<number> {
  const t0 = Date.now();
  const sent: Promise<boolean>[] = [];
  for (let i = 0; i < count; i++) {
    sent.push(
      fetch(`${base}/api/v1/devices`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `service_session=${seeded.sessionToken}`,
        },
        body: JSON.stringify({ device_id: `ev-${tag}-${i}`, model: 'hub-2', provider: 'acme' }),
      }).then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 201) refused.set(res.status, (refused.get(res.status) ?? 0) + 1);
        return res.status === 201;
      }),
    );
    await sleep(Math.max(0, t0 + ((i + 1) * 1000) / perS - Date.now()));
  }
  return (await Promise.all(sent)).filter(Boolean).length;
}

/** Lags (ms) from the change to the first attempt, for the webhook-ids not in `before`. */
export function lagsSince(r: Receiver, before: Set<string>): number[] {
  return [...r.firstAt]
    .filter(([id]) => !before.has(id))
    .map(([id, at]) => at - (r.changedAt.get(id) ?? NaN));
}
