import type { IncomingMessage, ServerResponse } from 'node:http';
import { securityHeaders } from './security-headers';

/** The headers the middleware sets for a request to `url`, read off a response stand-in. */
function headersFor(url: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) =>
      (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  let failure: unknown;
  securityHeaders()(
    { url } as IncomingMessage,
    res as unknown as ServerResponse,
    (err?: unknown) => (failure = err),
  );
  expect(failure).toBeUndefined();
  return headers;
}

describe('securityHeaders on pages', () => {
  it("are helmet's defaults: a strict CSP without inline script, nosniff, HSTS, no framing", () => {
    const headers = headersFor('/plans/success?session_id=x');
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBeUndefined();
  });
});

describe('securityHeaders on the API', () => {
  it('forbid rendering, framing, sniffing and caching, and keep HSTS', () => {
    const api = headersFor('/api/v1/devices');
    expect(api['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(api['strict-transport-security']).toBe(
      headersFor('/plans')['strict-transport-security'],
    );
    expect(api['x-content-type-options']).toBe('nosniff');
    expect(api['x-frame-options']).toBe('DENY');
    expect(api['referrer-policy']).toBe('no-referrer');
    expect(api['cache-control']).toBe('no-store');
    expect(api).not.toHaveProperty('cross-origin-opener-policy');
  });
});
