import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../../config/trust-proxy';

/** What a trusted proxy may name a request: nothing a person's name or a sentence fits in well. */
const PASSED_ON = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Whether a request's immediate peer is a proxy TRUST_PROXY trusts, as Express decides it for
 * `req.ip` (a hop count trusts the nearest hops; addresses and ranges through proxy-addr).
 */
export function trustsPeer(trust: TrustProxy): (address: string | undefined) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => trust > 0;
  const trusted = proxyaddr.compile(trust);
  return (address) => address !== undefined && trusted(address, 0);
}

/**
 * pino-http's `genReqId` (CONTRACT.md section 9): the request's id is the service's own unless a
 * trusted proxy passed a well-formed `X-Request-Id`; a client's words never reach the logs or the
 * audit trail as sent. The answer's X-Request-Id names the id used.
 */
export function requestIds(
  trust: TrustProxy,
): (req: IncomingMessage, res: ServerResponse) => string {
  const fromProxy = trustsPeer(trust);
  return (req, res) => {
    const incoming = req.headers['x-request-id'];
    const passedOn =
      typeof incoming === 'string' &&
      PASSED_ON.test(incoming) &&
      fromProxy(req.socket.remoteAddress);
    const id = passedOn ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    return id;
  };
}
