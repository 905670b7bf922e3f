import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { checkoutCompletedEvent } from './processor-events';

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

type Json = Record<string, unknown>;

/**
 * The payment processor's API at the HTTP level on 127.0.0.1, so the real SDK runs against it:
 * it records every request and answers as the processor would for the mode a test sets.
 */
export class FakeProcessor {
  readonly requests: ReceivedRequest[] = [];
  /** Checkout sessions as the processor holds them, by id: what a retrieve answers. */
  readonly sessions = new Map<string, Json>();
  /** When each session completed: its subscription's `created`, as the processor sets it. */
  private readonly completedAt = new Map<string, number>();
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

  retrieveRequests(): ReceivedRequest[] {
    return this.requests.filter((r) => r.method === 'GET' && r.path.startsWith(SESSIONS_PATH));
  }

  /** An open session for a record, as if our checkout had created it (returns its id). */
  openSession(subscriptionId: string, id = `cs_test_${randomBytes(12).toString('hex')}`): string {
    const now = Math.floor(Date.now() / 1000);
    this.sessions.set(id, {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.url}/c/pay/${id}`,
      client_reference_id: subscriptionId,
      metadata: { product: 'lease', subscription_id: subscriptionId },
      created: now,
      expires_at: now + 86400,
      customer: null,
      subscription: null,
      customer_details: null,
      collected_information: null,
      custom_fields: [],
    });
    return id;
  }

  /** The customer finished the hosted page: the session as a completed event carries it. */
  completeSession(id: string, fields: Json = {}): Json {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`fake processor: no session ${id}`);
    const subscriptionId = String(session.client_reference_id);
    const completed = (checkoutCompletedEvent(subscriptionId).data as { object: Json }).object;
    const done = {
      ...completed,
      ...pick(session, ['id', 'url', 'created', 'expires_at']),
      ...fields,
    };
    this.sessions.set(id, done);
    this.completedAt.set(id, Math.floor(Date.now() / 1000));
    return done;
  }

  expireSession(id: string): Json {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`fake processor: no session ${id}`);
    const expired = { ...session, status: 'expired', url: null };
    this.sessions.set(id, expired);
    return expired;
  }

  reset(mode: FakeMode = 'ok'): void {
    this.requests.length = 0;
    this.sessions.clear();
    this.completedAt.clear();
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
    const [path, query = ''] = (req.url ?? '').split('?');
    const received = { method: req.method ?? '', path, headers: req.headers, form };
    this.requests.push(received);
    if (req.method === 'GET' && path.startsWith('/c/pay/')) return hostedPage(res, path);
    const retrieve = req.method === 'GET' && path.startsWith(SESSIONS_PATH);
    if (!retrieve && (req.method !== 'POST' || path !== '/v1/checkout/sessions')) {
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
        // A page this fake serves itself, so a browser test can land on it.
        const id = this.openSession(form.client_reference_id ?? '');
        return send(res, 200, this.sessions.get(id));
      }
    }
  }

  /** GET /v1/checkout/sessions/{id}, with `expand[]=subscription` as the processor does it. */
  private retrieve(res: ServerResponse, path: string, query: string): void {
    const id = decodeURIComponent(path.slice(SESSIONS_PATH.length));
    const session = this.sessions.get(id);
    if (!session) {
      return send(res, 404, {
        error: {
          ...apiError('invalid_request_error', 'resource_missing', '').error,
          message: `No such checkout.session: '${id}'`,
          param: 'session',
        },
      });
    }
    const expand = [...new URLSearchParams(query).entries()]
      .filter(([k]) => k.startsWith('expand'))
      .map(([, v]) => v);
    const sub = session.subscription;
    if (expand.includes('subscription') && typeof sub === 'string') {
      return send(res, 200, {
        ...session,
        subscription: {
          id: sub,
          object: 'subscription',
          status: 'active',
          created: this.completedAt.get(id) ?? session.created,
          customer: session.customer,
          metadata: session.metadata,
        },
      });
    }
    send(res, 200, session);
  }
}

const SESSIONS_PATH = '/v1/checkout/sessions/';

function pick(o: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
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
