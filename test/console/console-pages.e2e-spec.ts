import { readdirSync } from 'node:fs';
import { CONSOLE_ASSETS } from '../../src/console-pages/console-pages.files';
import { createTestApp, TestApp } from '../support/test-app';

/** The console's document and files over HTTP; what it does in a browser: console.browser.e2e-spec.ts. */
describe('the console at /console/ (HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { OIDC_ISSUER: 'http://127.0.0.1:4400', OIDC_AUDIENCE: 'x' } });
  });
  afterAll(() => t.close());

  it('sends /console to /console/', async () => {
    const res = await t.http().get('/console').expect(301);
    expect(res.headers.location).toBe('/console/');
  });

  it.each([
    '/console/',
    '/console/devices',
    '/console/subscriptions/3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15',
  ])(
    '%s is the app’s document, under the console’s policy, with no inline script',
    async (path) => {
      const res = await t.http().get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<div id="root"></div>');
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self' http://127.0.0.1:4400");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves the built script, immutable; a missing asset is a 404, not the document', async () => {
    const script = readdirSync(CONSOLE_ASSETS).find((f) => f.endsWith('.js'));
    const js = await t.http().get(`/console/assets/${script}`).expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toMatch(/immutable/);
    const missing = await t.http().get('/console/assets/nothing-here.js').expect(404);
    expect(missing.headers['content-type']).toMatch(/problem\+json/);
  });
});
