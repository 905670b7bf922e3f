import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CheckoutSessions } from './checkout-sessions';
import type { Json } from './completed-session';
import {
  apiError,
  customerToDelete,
  deletedCustomer,
  expandOf,
  newId,
  noSuchCustomer,
  noSuchSession,
  parseForm,
  send,
  SESSIONS_PATH,
  sessionToExpire,
  str,
} from './processor-http';
import { buyerFromForm, checkoutPage, closedPage, DevPrice } from './hosted-page';
import { eventEnvelope, EventSender } from './processor-events';

export interface DevProcessorOptions {
  port: number;
  host?: string;
  /** The service that takes this processor's events. */
  serviceUrl: string;
  secretKey: string;
  webhookSecret: string;
  prices: Record<string, DevPrice>;
  coupons: string[];
  log?: (line: string) => void;
}

export interface DevProcessor {
  url: string;
  sessions: CheckoutSessions;
  /** Customers the hosted page's Pay made, until deleted (erasure); and those deleted. */
  customers: Set<string>;
  deletedCustomers: string[];
  close(): Promise<void>;
}

const PAGE = /^\/c\/pay\/([^/]+)(?:\/(pay|cancel))?$/;

/** The processor's success_url placeholder, which it fills in when it sends the browser back. */
const withSessionId = (url: unknown, id: string) =>
  (str(url) || '/').replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(id));

/**
 * The processor's checkout-session API (create, retrieve) and a hosted page whose Pay and Cancel
 * send the service the signed events the processor would, then send the browser back.
 */
export async function startDevProcessor(o: DevProcessorOptions): Promise<DevProcessor> {
  const log = o.log ?? ((line: string) => console.log(line));
  let base = '';
  const sessions = new CheckoutSessions(() => base);
  const sender = new EventSender(o.serviceUrl, o.webhookSecret, log);
  /** Idempotency-Key -> session id: a resent create answers the session it made the first time. */
  const created = new Map<string, string>();
  const customers = new Set<string>();
  const deletedCustomers: string[] = [];

  /** `DELETE /v1/customers/{id}`: a customer it made, once; any other is `404 resource_missing`. */
  function deleteCustomer(res: ServerResponse, id: string): void {
    if (!customers.delete(id)) return send(res, 404, noSuchCustomer(id));
    deletedCustomers.push(id);
    log(`customer ${id} deleted`);
    send(res, 200, deletedCustomer(id));
  }

  function create(req: IncomingMessage, res: ServerResponse, form: Json): void {
    const key = req.headers['idempotency-key'];
    const again = typeof key === 'string' ? created.get(key) : undefined;
    if (again) return send(res, 200, sessions.sessions.get(again));
    const items = Array.isArray(form.line_items) ? (form.line_items as Json[]) : [];
    const unknown = items.findIndex((item) => !o.prices[String(item.price)]);
    if (unknown >= 0) {
      const price = str(items[unknown].price);
      return missing(res, `No such price: '${price}'`, `line_items[${unknown}][price]`);
    }
    const coupon = str(((form.discounts as Json[] | undefined) ?? [])[0]?.coupon);
    if (coupon && !o.coupons.includes(coupon)) {
      return missing(res, `No such coupon: '${coupon}'`, 'discounts[0][coupon]');
    }
    const session = sessions.create(form);
    if (typeof key === 'string') created.set(key, String(session.id));
    log(
      `checkout session ${String(session.id)} opened for ${String(session.client_reference_id)}: ${String(session.url)}`,
    );
    send(res, 200, session);
  }

  /** Erasure closes a pending record's checkout: the session expires, and the service is told. */
  async function expire(res: ServerResponse, id: string): Promise<void> {
    const { status, body } = sessions.expireOpen(id);
    send(res, status, body);
    if (status !== 200) return;
    log(`checkout session ${id} expired by the service`);
    await sender.send(eventEnvelope('checkout.session.expired', body));
  }

  function api(req: IncomingMessage, res: ServerResponse, body: string): void {
    const [path, query = ''] = (req.url ?? '').split('?');
    if (req.headers.authorization !== `Bearer ${o.secretKey}`) {
      return send(
        res,
        401,
        apiError(
          'invalid_request_error',
          undefined,
          'Invalid API Key provided (this is the development processor: use the STRIPE_SECRET_KEY it printed)',
        ),
      );
    }
    if (req.method === 'POST' && path === SESSIONS_PATH) return create(req, res, parseForm(body));
    const customer = customerToDelete(req.method, path);
    if (customer !== undefined) return deleteCustomer(res, customer);
    const toExpire = sessionToExpire(req.method, path);
    if (toExpire !== undefined) return void expire(res, toExpire);
    if (req.method === 'GET' && path.startsWith(`${SESSIONS_PATH}/`)) {
      const id = decodeURIComponent(path.slice(SESSIONS_PATH.length + 1));
      const session = sessions.retrieve(id, expandOf(query));
      return send(res, session ? 200 : 404, session ?? noSuchSession(id));
    }
    send(
      res,
      404,
      apiError(
        'invalid_request_error',
        'resource_missing',
        `Unrecognized request URL (${req.method} ${path}): the development processor serves checkout sessions (create, retrieve, expire) and customer deletion only`,
      ),
    );
  }

  async function page(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    action: string | undefined,
    body: string,
  ): Promise<void> {
    const session = sessions.sessions.get(id);
    if (!session || session.status !== 'open') {
      const message = !session
        ? 'No such checkout session'
        : `This checkout session is ${String(session.status)}`;
      return html(res, session ? 410 : 404, closedPage(message));
    }
    if (!action || req.method !== 'POST') {
      return html(res, 200, checkoutPage(session, sessions.paramsOf(id) ?? {}, o.prices));
    }
    const params = sessions.paramsOf(id) ?? {};
    if (action === 'pay') {
      const form = Object.fromEntries(new URLSearchParams(body));
      const refs = { customer: newId('cus_dev'), subscription: newId('sub_dev') };
      const done = sessions.complete(id, {}, buyerFromForm(form), refs);
      customers.add(refs.customer);
      log(`checkout session ${id} paid`);
      await sender.send(eventEnvelope('checkout.session.completed', done));
      return redirect(res, withSessionId(params.success_url, id));
    }
    const expired = sessions.expire(id);
    log(`checkout session ${id} canceled: it expires`);
    await sender.send(eventEnvelope('checkout.session.expired', expired));
    redirect(res, withSessionId(params.cancel_url, id));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0];
    const match = PAGE.exec(path);
    if (match) return page(req, res, decodeURIComponent(match[1]), match[2], body);
    return api(req, res, body);
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`error: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent)
        send(res, 500, apiError('api_error', undefined, 'Something went wrong'));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, resolve);
  });
  const address = server.address();
  base = `http://${host}:${typeof address === 'object' && address ? address.port : o.port}`;
  return {
    url: base,
    sessions,
    customers,
    deletedCustomers,
    close: () =>
      new Promise<void>((resolve) => {
        sender.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The processor's `400 resource_missing` for a parameter naming something it does not have. */
function missing(res: ServerResponse, message: string, param: string): void {
  send(res, 400, apiError('invalid_request_error', 'resource_missing', message, param));
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location });
  res.end();
}
