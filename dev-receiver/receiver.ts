import { createServer, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the receiver answers every delivery: a status code, or never (to see the sender time out). */
export type Answer = number | 'hang';

export interface ReceiverOptions {
  port: number;
  host?: string;
  /** Each is tried in turn (two are live while the sender rotates); none: signatures are not checked. */
  secrets: string[];
  answer?: Answer;
  /** Where each delivery's line goes; stdout by default. */
  print?: (line: string) => void;
}

export interface Delivery {
  id: string;
  type: string;
  /** When the change happened, as the body says. */
  timestamp: string;
  /** The `webhook-timestamp` header: when this attempt was signed. */
  signedAt: string;
  summary: string;
  /** A subscription event's `data` (the record the integrator got), as indented JSON. */
  record?: string;
  /** undefined: no secret was given, so nothing was checked. */
  verified: boolean | undefined;
  /** Why it did not verify. */
  reason?: string;
}

export interface RunningReceiver {
  url: string;
  deliveries: Delivery[];
  close(): Promise<void>;
}

/** More than any event the service sends; a larger body is cut off and fails to verify. */
const MAX_BODY_BYTES = 1024 * 1024;
/** The fields of `data` worth a glance on one line, in this order. */
const SUMMARY_KEYS = [
  'id',
  'status',
  'product',
  'email',
  'device_id',
  'org_id',
  'model',
  'endpoint_id',
];

const headerOf = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
};

/** Checks the Standard Webhooks signature with each secret; the library also bounds the timestamp's age. */
export function verifySignature(
  body: Buffer,
  headers: IncomingHttpHeaders,
  secrets: string[],
): { verified: boolean | undefined; reason?: string } {
  if (secrets.length === 0) return { verified: undefined };
  const wanted = {
    'webhook-id': headerOf(headers, 'webhook-id'),
    'webhook-timestamp': headerOf(headers, 'webhook-timestamp'),
    'webhook-signature': headerOf(headers, 'webhook-signature'),
  };
  let reason = 'no secret verified it';
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body.toString('utf8'), wanted);
      return { verified: true };
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
  }
  return { verified: false, reason };
}

/** `id=… status=paid …` from the event's data, or its keys when none of the usual ones is there. */
export function summarize(data: unknown): string {
  if (typeof data !== 'object' || data === null) return JSON.stringify(data) ?? '';
  const record = data as Record<string, unknown>;
  const known = SUMMARY_KEYS.filter((k) => record[k] !== undefined && record[k] !== null);
  if (known.length === 0) return `{${Object.keys(record).join(', ')}}`;
  return known.map((k) => `${k}=${String(record[k] as string)}`).join(' ');
}

/** Reads a delivery: its body may be anything (the signature is checked on the bytes, not the JSON). */
export function describeDelivery(
  body: Buffer,
  headers: IncomingHttpHeaders,
  secrets: string[],
): Delivery {
  let parsed: { type?: unknown; timestamp?: unknown; data?: unknown } = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
  } catch {
    parsed = { type: '(body is not JSON)' };
  }
  const signed = Number(headerOf(headers, 'webhook-timestamp'));
  return {
    id: headerOf(headers, 'webhook-id') || '(no webhook-id)',
    type: typeof parsed.type === 'string' ? parsed.type : '(no type)',
    timestamp: typeof parsed.timestamp === 'string' ? parsed.timestamp : '',
    signedAt: Number.isFinite(signed) ? new Date(signed * 1000).toISOString() : '',
    summary: summarize(parsed.data),
    ...(typeof parsed.type === 'string' && parsed.type.startsWith('subscription.')
      ? { record: JSON.stringify(parsed.data, null, 2) }
      : {}),
    ...verifySignature(body, headers, secrets),
  };
}

export function formatDelivery(d: Delivery): string {
  const signature =
    d.verified === undefined
      ? 'signature not checked (no --secret)'
      : d.verified
        ? 'signature verified'
        : `signature NOT verified: ${d.reason}`;
  return `${d.type} ${d.id} at ${d.timestamp} (sent ${d.signedAt}) ${d.summary}  ${signature}`;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A receiver on 127.0.0.1 that takes a POST on any path, prints it and answers as told. */
export async function startReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const print = options.print ?? ((line: string) => console.log(line));
  const answer = options.answer ?? 204;
  const deliveries: Delivery[] = [];
  const sockets = new Set<Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const delivery = describeDelivery(body, req.headers, options.secrets);
    deliveries.push(delivery);
    print(formatDelivery(delivery));
    // What a fulfilment team would act on: the record itself, under its line.
    if (delivery.record) print(delivery.record.replace(/^/gm, '    '));
    if (answer === 'hang') return; // the sender's timeout has to end it
    res.writeHead(answer).end();
  };
  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
