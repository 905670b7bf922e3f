import { helmetHeaders } from './security-headers';

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
