import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIds, trustsPeer } from './request-id';

describe('the request id', () => {
  it('trusts the peer as Express does: never, by hop count, or by address and range', () => {
    expect(trustsPeer(false)('127.0.0.1')).toBe(false);
    expect(trustsPeer(0)('127.0.0.1')).toBe(false);
    expect(trustsPeer(1)('203.0.113.7')).toBe(true);
    const ranges = trustsPeer(['loopback', '10.0.0.0/8']);
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3'].map(ranges)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['203.0.113.7', '11.0.0.1', undefined].map(ranges)).toEqual([false, false, false]);
  });

  it("keeps a trusted proxy's well-formed id only, and answers with the id used", () => {
    const ids = requestIds(['10.0.0.0/8']);
    const run = (remoteAddress: string, sent?: string) => {
      const headers: Record<string, string> = {};
      const req = { headers: { 'x-request-id': sent }, socket: { remoteAddress } };
      const res = { setHeader: (k: string, v: string) => (headers[k] = v) };
      const id = ids(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      expect(headers['X-Request-Id']).toBe(id);
      return id;
    };
    const own = /^[0-9a-f-]{36}$/;
    expect(run('10.0.0.5', 'lb-7f3a.1_x')).toBe('lb-7f3a.1_x');
    expect(run('10.0.0.5', 'a'.repeat(64))).toBe('a'.repeat(64));
    for (const sent of [undefined, '', 'a'.repeat(65), 'a:b', 'Mary Smith', 'é']) {
      expect(run('10.0.0.5', sent)).toMatch(own);
    }
    expect(run('203.0.113.7', 'lb-7f3a')).toMatch(own);
  });
});
