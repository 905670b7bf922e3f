/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshotPath } from '../support/browser';
import { eventsFor, LIFECYCLE_ENV, newRecord, send, TestRecord } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';

const describeBrowser = browserAvailable() ? describe : describe.skip;

describeBrowser('the success page in Chromium', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    t = await createTestApp({ env: LIFECYCLE_ENV });
    await t.app.listen(0, '127.0.0.1');
    const address = t.app.getHttpServer().address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function land(r: TestRecord): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    await page.goto(`${base}/plans/success?session_id=${r.sessionId}`);
    return page;
  }

  const title = (page: Page) => page.locator('#confirmation-title');
  const stateIs = (page: Page, state: string) =>
    page.waitForFunction(
      (s) => document.getElementById('confirmation')?.getAttribute('data-state') === s,
      state,
      { timeout: 15_000 },
    );

  it('says "confirming" before the webhook and "confirmed" after it', async () => {
    const r = await newRecord(t);
    const page = await land(r);
    // Polls twice while the record is pending: still confirming, no next steps.
    await page.waitForResponse((res) => res.url().includes('/api/lease/checkout-status'));
    await page.waitForResponse((res) => res.url().includes('/api/lease/checkout-status'));
    await expect(title(page).textContent()).resolves.toBe('We are confirming your payment');
    expect(await page.locator('#next-steps').isVisible()).toBe(false);
    await page.screenshot({ path: screenshotPath('success-confirming'), fullPage: true });

    await send(t, eventsFor(r).completed(Math.floor(Date.now() / 1000)));
    await stateIs(page, 'paid');
    await expect(title(page).textContent()).resolves.toBe(
      'Thank you, your subscription is confirmed',
    );
    expect(await page.locator('#next-steps').isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath('success-confirmed'), fullPage: true });
    await page.close();
  });

  it('says so when a bank debit fails at checkout, and never "confirmed"', async () => {
    const r = await newRecord(t);
    const page = await land(r);
    await send(t, eventsFor(r).asyncFailed(Math.floor(Date.now() / 1000)));
    await stateIs(page, 'payment_failed');
    await expect(title(page).textContent()).resolves.toBe('Your payment did not go through');
    expect(await page.locator('#next-steps').isVisible()).toBe(false);
    expect(await page.locator('#back-to-plans').isVisible()).toBe(true);
    await page.close();
  });

  it('says at once that a link that is no checkout we know (400 or 404) is not one, and how to reach us', async () => {
    const { phone, email } = t.config.support;
    // A malformed id is a 400 from the status call, a well-formed unknown one a 404.
    for (const sessionId of ['bogus', 'cs_test_000000000000000000000000']) {
      const page = await browser.newPage();
      const started = Date.now();
      await page.goto(`${base}/plans/success?session_id=${sessionId}`);
      await stateIs(page, 'unknown');
      expect(Date.now() - started).toBeLessThan(5_000);
      await expect(title(page).textContent()).resolves.toBe('We do not know this checkout');
      const status = await page.locator('#confirmation-status').textContent();
      expect(status).toContain(phone);
      expect(status).toContain(email);
      expect(status).not.toMatch(/email you/);
      expect(await page.locator('#next-steps').isVisible()).toBe(false);
      await page.close();
    }
  });
});
