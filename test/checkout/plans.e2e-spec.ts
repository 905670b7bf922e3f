import { createTestApp, TestApp } from '../support/test-app';

describe('plans pages (HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { SUPPORT_PHONE: '+1 (555) 010-2000', SUPPORT_EMAIL: 'help@care.test' },
    });
  });
  afterAll(() => t.close());

  it('serves /plans with the contact card rendered on the server and no inline script', async () => {
    const res = await t.http().get('/plans').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('help@care.test');
    expect(res.text).toContain('href="tel:+15550102000"');
    expect(res.text).toContain('<script src="/plans/assets/plans.js" defer></script>');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    for (const name of ['name', 'email', 'coupon']) {
      expect(res.text).toMatch(new RegExp(`<label for="${name}">`));
    }
    expect(res.text).toMatch(/id="name"[^>]*maxlength="120"/);
    expect(res.text).toMatch(/id="email"[^>]*maxlength="160"/);
  });

  it('serves the script and styles from the service itself', async () => {
    const js = await t.http().get('/plans/assets/plans.js').expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.text).toContain('/api/lease/checkout-config');
    const css = await t.http().get('/plans/assets/plans.css').expect(200);
    expect(css.headers['content-type']).toMatch(/text\/css/);
  });

  it('serves the success and cancel pages', async () => {
    const ok = await t.http().get('/plans/success?session_id=cs_test_1').expect(200);
    expect(ok.text).toMatch(/ship/i);
    // Rendered as "confirming": only the script, once the record is paid, says confirmed.
    expect(ok.text).toContain('We are confirming your payment');
    expect(ok.text).not.toContain('subscription is confirmed');
    expect(ok.text).toContain('<script src="/plans/assets/success.js" defer></script>');
    expect(ok.headers['cache-control']).toBe('no-store');
    const cancel = await t.http().get('/plans/cancel').expect(200);
    expect(cancel.text).toContain('Nothing was charged');
    expect(cancel.text).toContain('href="/plans"');
  });
});
