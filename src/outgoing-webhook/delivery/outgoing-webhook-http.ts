import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../endpoints/outgoing-webhook-address';
import type { DeliveryFailureReason } from '../outgoing-webhook.types';

/**
 * What one attempt came to; `statusCode` null when no answer came (timeout, refused...). `error`
 * is the service's own reason, never the receiver's answer.
 */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: DeliveryFailureReason | null;
}

const MAX_KEPT = 1024;

/** Pins the connection to the address that was checked: no second lookup can differ. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  };
}

/**
 * Reads at most 1 KiB of the answer and drops it with the connection: the receiver's words are
 * not kept (an answer may echo the event's personal data).
 */
function readSome(res: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let size = 0;
    const done = () => {
      res.destroy();
      resolve();
    };
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size >= MAX_KEPT) done();
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

/** The limits of one attempt: its hard deadline, and the instance's shutdown. */
export interface AttemptLimits {
  timeoutMs: number;
  /** Aborts at the deadline, which covers the name lookup, the address check and the POST. */
  deadline: AbortSignal;
  stop: AbortSignal;
}

/** Node's error codes of a failed TLS handshake or certificate check. */
const TLS_CODE =
  /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|EPROTO)/;

/** The reason of an attempt that got no answer, from the socket's error code. */
export function failureOf(err: unknown, limits: AttemptLimits): DeliveryFailureReason {
  if (limits.deadline.aborted) return 'timeout';
  if (limits.stop.aborted) return 'aborted';
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'connection_failed';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (TLS_CODE.test(code)) return 'tls';
  return 'connection_failed';
}

/** `work`, or a rejection as soon as `signal` aborts (a lookup cannot be cancelled, only left). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * One POST, ended at the attempt's deadline, no redirects followed (a 3xx is a failure that keeps
 * its status), at most 1 KiB of the answer read and none of it kept.
 */
export function postOnce(
  url: URL,
  target: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  limits: AttemptLimits,
): Promise<AttemptResult> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.any([limits.deadline, limits.stop]);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(target),
      agent: false,
      signal,
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      void readSome(res).then(() => {
        const ok = status >= 200 && status < 300;
        const redirect = status >= 300 && status < 400;
        const error = ok ? null : redirect ? 'redirect_not_followed' : (`http_${status}` as const);
        finish({ ok, statusCode: status, error });
      });
    });
    req.on('error', (err) =>
      finish({ ok: false, statusCode: null, error: failureOf(err, limits) }),
    );
    req.end(body);
  });
}
