/// <reference lib="dom" />
// page.evaluate() callbacks run in the browser, so this file sees the DOM types.
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshotPath } from '../support/browser';
import { newEmail, processorEnv, subscriptionsByEmail } from '../support/checkout';
import { FakeProcessor } from '../support/fake-processor';
import { createTestApp, TestApp } from '../support/test-app';

/** Boots the app on a real port, so a real browser can load the page. */
async function serve(env: Record<string, string>): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp({ env });
  await t.app.listen(0, '127.0.0.1');
  const address = t.app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { t, base: `http://127.0.0.1:${port}` };
}

const describeBrowser = browserAvailable() ? describe : describe.skip;

describeBrowser('the plans page in Chromium', () => {
  let browser: Browser;
  let fake: FakeProcessor;
  let enabled: { t: TestApp; base: string };
  let disabled: { t: TestApp; base: string };

  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    enabled = await serve(processorEnv(fake.url));
    disabled = await serve({});
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await enabled?.t.close();
    await disabled?.t.close();
    await fake?.stop();
  });
  beforeEach(() => fake.reset());

  async function open(base: string, width = 1024): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${base}/plans`);
    return page;
  }

  it('shows the offer from the config, and checkout sends the browser to the processor', async () => {
    const page = await open(enabled.base);
    await page.locator('#offer').waitFor({ state: 'visible' });
    await expect(page.locator('#lease-price').textContent()).resolves.toBe('$249');
    await expect(page.locator('#monthly-price').textContent()).resolves.toBe('$50');
    expect(await page.locator('#contact').isVisible()).toBe(false);

    const email = newEmail();
    await page.getByLabel('Your name').fill('Dana Carer');
    await page.getByLabel('Your email').fill(email);
    await page.screenshot({ path: screenshotPath('plans-enabled-filled'), fullPage: true });
    await page.getByRole('button', { name: 'Continue to secure checkout' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${fake.url}/c/pay/cs_test_`));
    await page.screenshot({ path: screenshotPath('plans-processor-page') });

    const stored = await subscriptionsByEmail(enabled.t, email);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: 'pending', name: 'Dana Carer', email });
    await page.close();
  });

  it('works with the keyboard alone', async () => {
    const page = await open(enabled.base);
    await page.locator('#offer').waitFor({ state: 'visible' });
    const email = newEmail();
    await page.keyboard.press('Tab'); // first focusable: the name field
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('name');
    await page.keyboard.type('Kim Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.href.startsWith(`${fake.url}/c/pay/`));
    expect(await subscriptionsByEmail(enabled.t, email)).toHaveLength(1);
    await page.close();
  });

  it('shows an unknown coupon at the coupon field and stays on the page', async () => {
    fake.reset('noSuchCoupon');
    const page = await open(enabled.base);
    await page.locator('#offer').waitFor({ state: 'visible' });
    await page.getByLabel('Coupon code').fill('NOT-A-CODE');
    await page.getByRole('button', { name: 'Continue to secure checkout' }).click();
    const error = page.locator('#coupon-error');
    await error.waitFor({ state: 'visible' });
    await expect(error.textContent()).resolves.toMatch(/coupon code is not valid/i);
    await expect(page.getByLabel('Coupon code').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(page.url()).toBe(`${enabled.base}/plans`);
    await page.screenshot({ path: screenshotPath('plans-invalid-coupon'), fullPage: true });
    await page.close();
  });

  it('says when to try again after too many attempts', async () => {
    const limited = await serve(processorEnv(fake.url, { RATE_LIMIT_CHECKOUT_PER_MINUTE: '1' }));
    try {
      const page = await open(limited.base);
      await page.locator('#offer').waitFor({ state: 'visible' });
      const submit = page.getByRole('button', { name: 'Continue to secure checkout' });
      // The first attempt is allowed; stay on the page by making it fail at the processor.
      fake.reset('error500');
      await submit.click();
      await page.locator('#contact-apology').waitFor({ state: 'visible' });
      await page.reload();
      await page.locator('#offer').waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Continue to secure checkout' }).click();
      await page.waitForFunction(() =>
        /try again in \d+ seconds/.test(document.getElementById('form-status')?.textContent ?? ''),
      );
      expect(await page.locator('#offer').isVisible()).toBe(true);
      await page.screenshot({ path: screenshotPath('plans-rate-limited'), fullPage: true });
      await page.close();
    } finally {
      await limited.t.close();
    }
  });

  it('falls back to the contact card with an apology when the processor fails', async () => {
    fake.reset('error500');
    const page = await open(enabled.base);
    await page.locator('#offer').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Continue to secure checkout' }).click();
    await page.locator('#contact-apology').waitFor({ state: 'visible' });
    expect(await page.locator('#offer').isVisible()).toBe(false);
    await page.screenshot({ path: screenshotPath('plans-processor-down'), fullPage: true });
    await page.close();
  });

  it('shows only the contact card when checkout is disabled', async () => {
    const page = await open(disabled.base);
    await page.locator('#contact').waitFor({ state: 'visible' });
    // Give the script time to read the config: the form must stay hidden afterwards too.
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#offer').isVisible()).toBe(false);
    expect(await page.locator('#contact-apology').isVisible()).toBe(false);
    await page.screenshot({ path: screenshotPath('plans-disabled'), fullPage: true });
    await page.close();
  });

  it('fits a 375 px wide screen without horizontal scrolling', async () => {
    const page = await open(enabled.base, 375);
    await page.locator('#offer').waitFor({ state: 'visible' });
    const [scroll, client] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(scroll).toBeLessThanOrEqual(client);
    await page.screenshot({ path: screenshotPath('plans-narrow'), fullPage: true });
    await page.close();
  });
});
