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
  securityHeaders({ consoleConnectSrc: ['http://127.0.0.1:4400/', 'not a url'] })(
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

describe('securityHeaders on the console', () => {
  it.each(['/console', '/console/', '/console/subscriptions/x', '/console/assets/index.js'])(
    '%s: script only from the service, calls to it and the identity provider, never framed',
    (url) => {
      const csp = headersFor(url)['content-security-policy'];
      const directives = Object.fromEntries(
        csp.split(';').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
      );
      expect(directives['script-src']).toBe("'self'");
      expect(directives['connect-src']).toBe("'self' http://127.0.0.1:4400");
      expect(directives['frame-ancestors']).toBe("'none'");
      expect(directives['object-src']).toBe("'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    },
  );

  it('is not mistaken for a path that only starts with the word', () => {
    expect(headersFor('/consoles')['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
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
