import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body as the SDK sent it, flat: `line_items[0][price]` -> `price_lease`. */
  form: Record<string, string>;
}

/** How the fake answers the next checkout-session calls. */
export type FakeMode = 'ok' | 'error500' | 'error429' | 'reset' | 'noSuchCoupon' | 'hang';

/**
 * The payment processor's API at the HTTP level on 127.0.0.1, so the real SDK runs against it:
 * it records every request and answers as the processor would for the mode a test sets.
 */
export class FakeProcessor {
  readonly requests: ReceivedRequest[] = [];
  mode: FakeMode = 'ok';
  /** Runs when a session request arrives, before the answer: to look at the world at that moment. */
  onSessionRequest?: (req: ReceivedRequest) => Promise<void>;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    const address = this.server?.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return `http://127.0.0.1:${port}`;
  }

  sessionRequests(): ReceivedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
  }

  reset(mode: FakeMode = 'ok'): void {
    this.requests.length = 0;
    this.mode = mode;
    this.onSessionRequest = undefined;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const path = (req.url ?? '').split('?')[0];
    const received = { method: req.method ?? '', path, headers: req.headers, form };
    this.requests.push(received);
    if (req.method === 'GET' && path.startsWith('/c/pay/')) return hostedPage(res, path);
    if (req.method !== 'POST' || path !== '/v1/checkout/sessions') {
      return send(res, 404, apiError('invalid_request_error', 'resource_missing', 'Unknown path'));
    }
    await this.onSessionRequest?.(received);
    switch (this.mode) {
      case 'hang':
        return; // never answers; the SDK's timeout has to end it
      case 'reset':
        return void req.socket.destroy(); // the connection dies without an answer
      case 'error429':
        return send(res, 429, {
          error: {
            type: 'invalid_request_error',
            code: 'rate_limit',
            message: 'Too many requests',
          },
        });
      case 'error500':
        return send(res, 500, { error: { type: 'api_error', message: 'Something went wrong' } });
      case 'noSuchCoupon':
        return send(res, 400, {
          error: {
            ...apiError('invalid_request_error', 'resource_missing', '').error,
            message: `No such coupon: '${form['discounts[0][coupon]']}'`,
            param: 'discounts[0][coupon]',
          },
        });
      case 'ok': {
        const id = `cs_test_${randomBytes(12).toString('hex')}`;
        return send(res, 200, {
          id,
          object: 'checkout.session',
          mode: form.mode,
          status: 'open',
          // A page this fake serves itself, so a browser test can land on it.
          url: `${this.url}/c/pay/${id}`,
          client_reference_id: form.client_reference_id ?? null,
          metadata: {},
        });
      }
    }
  }
}

function apiError(type: string, code: string, message: string) {
  return { error: { type, code, message } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(json),
    'Request-Id': `req_${randomBytes(6).toString('hex')}`,
  });
  res.end(json);
}

/** Stands in for the processor's hosted checkout page. */
function hostedPage(res: ServerResponse, path: string): void {
  const html = `<!doctype html><title>Fake hosted checkout</title><h1>Fake checkout ${path.slice(7, 40)}</h1>`;
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(html);
}

/** A 127.0.0.1 address nothing listens on, for a refused connection. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
