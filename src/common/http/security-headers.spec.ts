import { apiHeaders, helmetHeaders } from './security-headers';

describe('helmetHeaders', () => {
  it("are helmet's defaults: a strict CSP without inline script, nosniff, HSTS, no framing", () => {
    const headers = helmetHeaders();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('apiHeaders', () => {
  it('forbid rendering, framing, sniffing and caching, and keep HSTS', () => {
    const page = helmetHeaders();
    const api = apiHeaders(page);
    expect(api['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api['strict-transport-security']).toBe(page['strict-transport-security']);
    expect(api['x-content-type-options']).toBe('nosniff');
    expect(api['x-frame-options']).toBe('DENY');
    expect(api['cache-control']).toBe('no-store');
  });
});
