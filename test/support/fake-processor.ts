import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CheckoutSessions } from '../../dev-processor/checkout-sessions';
import type { Json } from '../../dev-processor/completed-session';
import {
  apiError,
  customerToDelete,
  deletedCustomer,
  expandOf,
  noSuchSession,
  parseForm,
  send,
  SESSIONS_PATH,
  sessionToExpire,
} from '../../dev-processor/processor-http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body as the SDK sent it, flat: `line_items[0][price]` -> `price_lease`. */
  form: Record<string, string>;
}

/** How the fake answers the next checkout-session calls (creates and retrieves). */
export type FakeMode =
  'ok' | 'error500' | 'error429' | 'reset' | 'noSuchCoupon' | 'noSuchPrice' | 'badKey' | 'hang';

/**
 * The payment processor's API at the HTTP level on 127.0.0.1, so the real SDK runs against it:
 * it records every request and answers as the processor would for the mode a test sets. Its
 * sessions are the development processor's (dev-processor/), which adds the hosted page's Pay.
 */
export class FakeProcessor {
  readonly requests: ReceivedRequest[] = [];
  private readonly store = new CheckoutSessions(() => this.url);
  mode: FakeMode = 'ok';
  /** How customer deletions are answered: `down` is a 503 (the SDK retries, then gives up). */
  customersMode: 'ok' | 'down' = 'ok';
  /** How session expiries are answered: `down` is a 503, as customers' `down`. */
  expireMode: 'ok' | 'down' = 'ok';
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
    return this.requests.filter((r) => r.method === 'POST' && r.path === SESSIONS_PATH);
  }

  /** The customer ids of every `DELETE /v1/customers/{id}` that arrived (answered or not). */
  customerDeletions(): string[] {
    return this.requests.flatMap((r) => customerToDelete(r.method, r.path) ?? []);
  }

  retrieveRequests(): ReceivedRequest[] {
    return this.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith(`${SESSIONS_PATH}/`),
    );
  }

  /** Checkout sessions as the processor holds them, by id: what a retrieve answers. */
  get sessions(): Map<string, Json> {
    return this.store.sessions;
  }

  /** An open session for a record, as if our checkout had created it (returns its id). */
  openSession(subscriptionId: string, id?: string): string {
    return this.store.open(subscriptionId, id);
  }

  /** The customer finished the hosted page: the session as a completed event carries it. */
  completeSession(id: string, fields: Json = {}): Json {
    return this.store.complete(id, fields);
  }

  expireSession(id: string): Json {
    return this.store.expire(id);
  }

  /**
   * The customer presses Pay on the hosted page: the session completes only while it is open
   * (undefined once expired or complete), as the processor's page does.
   */
  pay(id: string, fields: Json = {}): Json | undefined {
    return this.sessions.get(id)?.status === 'open' ? this.completeSession(id, fields) : undefined;
  }

  /** The ids of every `POST /v1/checkout/sessions/{id}/expire` that arrived (answered or not). */
  sessionExpiries(): string[] {
    return this.requests.flatMap((r) => sessionToExpire(r.method, r.path) ?? []);
  }

  reset(mode: FakeMode = 'ok'): void {
    this.requests.length = 0;
    this.store.clear();
    this.mode = mode;
    this.customersMode = 'ok';
    this.expireMode = 'ok';
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
    const body = Buffer.concat(chunks).toString('utf8');
    const form = Object.fromEntries(new URLSearchParams(body));
    const [path, query = ''] = (req.url ?? '').split('?');
    const received = { method: req.method ?? '', path, headers: req.headers, form };
    this.requests.push(received);
    if (req.method === 'GET' && path.startsWith('/c/pay/')) return hostedPage(res, path);
    const customer = customerToDelete(req.method, path);
    if (customer !== undefined) {
      if (this.customersMode === 'down') {
        return send(res, 503, { error: { type: 'api_error', message: 'Service unavailable' } });
      }
      return send(res, 200, deletedCustomer(customer));
    }
    const toExpire = sessionToExpire(req.method, path);
    if (toExpire !== undefined) {
      if (this.expireMode === 'down') {
        return send(res, 503, { error: { type: 'api_error', message: 'Service unavailable' } });
      }
      const { status, body: answer } = this.store.expireOpen(toExpire);
      return send(res, status, answer);
    }
    const retrieve = req.method === 'GET' && path.startsWith(`${SESSIONS_PATH}/`);
    if (!retrieve && (req.method !== 'POST' || path !== SESSIONS_PATH)) {
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
      case 'noSuchPrice':
        return send(res, 400, {
          error: {
            ...apiError('invalid_request_error', 'resource_missing', '').error,
            message: `No such price: '${form['line_items[0][price]']}'`,
            param: 'line_items[0][price]',
          },
        });
      case 'badKey':
        return send(res, 401, {
          error: {
            type: 'invalid_request_error',
            message: 'Invalid API Key provided: sk_test_****_key',
          },
        });
      case 'noSuchCoupon':
        if (retrieve) return this.retrieve(res, path, query);
        return send(res, 400, {
          error: {
            ...apiError('invalid_request_error', 'resource_missing', '').error,
            message: `No such coupon: '${form['discounts[0][coupon]']}'`,
            param: 'discounts[0][coupon]',
          },
        });
      case 'ok': {
        if (retrieve) return this.retrieve(res, path, query);
        // Its url is a page this fake serves itself, so a browser test can land on it.
        return send(res, 200, this.store.create(parseForm(body)));
      }
    }
  }

  private retrieve(res: ServerResponse, path: string, query: string): void {
    const id = decodeURIComponent(path.slice(SESSIONS_PATH.length + 1));
    const session = this.store.retrieve(id, expandOf(query));
    send(res, session ? 200 : 404, session ?? noSuchSession(id));
  }
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
