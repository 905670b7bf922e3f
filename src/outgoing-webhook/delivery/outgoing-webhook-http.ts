import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../endpoints/outgoing-webhook-address';
import { cleanText } from '../../common/validation/storable-text';

/** What one attempt came to; `statusCode` null when no answer came (timeout, refused...). */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

const MAX_KEPT = 1024;

/** Pins the connection to the address that was checked: no second lookup can differ. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  };
}

/** At most 1 KiB, as storable text (no NUL, no broken UTF-8). */
export function keptText(bytes: Buffer | string): string {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  return cleanText(text.slice(0, MAX_KEPT));
}

/** Reads at most 1 KiB of the answer, then drops the connection. */
function readSome(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      res.destroy();
      resolve(Buffer.concat(chunks).subarray(0, MAX_KEPT));
    };
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
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

function describeFailure(err: unknown, limits: AttemptLimits): string {
  if (limits.deadline.aborted) return `timeout: no answer within ${limits.timeoutMs / 1000} s`;
  if (limits.stop.aborted) return 'aborted: the instance is stopping';
  const code = (err as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return `connection failed: ${code ?? (err instanceof Error ? err.message : String(err))}`;
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
 * its status), at most 1 KiB of the answer read.
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
      void readSome(res).then((answer) => {
        const ok = status >= 200 && status < 300;
        let error: string | null = ok ? null : keptText(answer);
        if (status >= 300 && status < 400) {
          error = keptText(`redirect not followed (Location: ${res.headers.location ?? 'none'})`);
        }
        finish({ ok, statusCode: status, error });
      });
    });
    req.on('error', (err) =>
      finish({ ok: false, statusCode: null, error: describeFailure(err, limits) }),
    );
    req.end(body);
  });
}
