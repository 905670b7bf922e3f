import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** What the receiver answers: a status (and body, location), or `hang` (never answers). */
export type ReceiverAnswer = { status: number; body?: string; location?: string } | 'hang';

/** An integrator's endpoint on 127.0.0.1: records every delivery and answers as told. */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  answer: (d: ReceivedDelivery) => ReceiverAnswer = () => ({ status: 204 });
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const d: ReceivedDelivery = { headers: req.headers, body, json: JSON.parse(body) };
        this.received.push(d);
        const a = this.answer(d);
        if (a === 'hang') return void this.hanging.add(res);
        if (a.location) res.setHeader('Location', a.location);
        res.writeHead(a.status).end(a.body ?? '');
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    return this;
  }

  get port(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  of(type: string): ReceivedDelivery[] {
    return this.received.filter((d) => d.json.type === type);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** Verifies as an integrator would, at the delivery's own timestamp (the app's clock may be ahead). */
export function verifies(secret: string, d: ReceivedDelivery): boolean {
  const at = Number(d.headers['webhook-timestamp']) * 1000;
  const spy = jest.spyOn(Date, 'now').mockReturnValue(at);
  try {
    new Webhook(secret).verify(d.body, d.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    spy.mockRestore();
  }
}

/** Polls until `check` holds (the worker runs on its own); fails with `what` after 20 s. */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
