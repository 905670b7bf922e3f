import { createServer, Server } from 'node:http';
import type { Socket } from 'node:net';

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
