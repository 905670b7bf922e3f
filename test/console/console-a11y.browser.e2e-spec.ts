/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../support/browser';
import { contextFor, startConsoleWorld, type ConsoleWorld, type Session } from '../support/console';
import { createDevice, createPendingSubscription } from '../support/factories';

const describeBrowser = browserAvailable() ? describe : describe.skip;

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.1 A and AA). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** True when the page is wider than the window: a phone would scroll sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describeBrowser('the console for everyone: axe-core on every page, 390 px wide', () => {
  let browser: Browser;
  let world: ConsoleWorld;
  let admin: Session;
  const pages: [path: string, heading: string][] = [];

  beforeAll(async () => {
    world = await startConsoleWorld();
    browser = await launchBrowser();
    admin = await world.session({ orgId: world.fulfilmentOrgId });
    for (let k = 0; k < 3; k++) await createDevice(world.t.app, world.fulfilmentOrgId);
    const record = await createPendingSubscription(world.t.app, {
      status: 'paid',
      paidAt: new Date(),
      customerName: 'Dana Carer',
      recipientName: 'Ruth Walker',
      livingSituation: 'livesalone',
      shippingAddress: '1 Main St, Apt 2, Springfield, IL 62701, US',
    });
    const endpoint = await world.t
      .http()
      .post('/api/v1/webhook-endpoints')
      .set('Cookie', admin.cookie)
      .set('Origin', world.base)
      .send({ url: 'https://hooks.example.com/a-rather-long-path/that/must/wrap/on/a/phone' })
      .expect(201);
    pages.push(
      ['/', 'Overview'],
      ['/devices', 'Devices'],
      ['/subscriptions', 'Subscriptions'],
      [`/subscriptions/${record.id}`, 'Subscription'],
      ['/webhooks', 'Webhooks'],
      [`/webhooks/${endpoint.body.id}`, 'Webhook endpoint'],
      ['/people', 'People'],
      ['/audit', 'Audit'],
      ['/settings', 'Settings'],
    );
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it.each([1280, 390])(
    'every page at %i px: no serious or critical violation, no sideways scroll',
    async (width) => {
      const context = await contextFor(browser, world, admin, width);
      const page = await context.newPage();
      const found: Record<string, string[]> = {};
      for (const [path, heading] of pages) {
        await page.goto(`${world.base}/console${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page
          .getByRole('status')
          .filter({ hasText: 'Loading…' })
          .waitFor({ state: 'detached' });
        const problems = await seriousViolations(page);
        if (await scrollsSideways(page)) problems.push('the page scrolls sideways');
        if (problems.length) found[path] = problems;
      }
      expect(found).toEqual({});
      await context.close();
    },
  );

  it('the sign-in page and the dialogs pass too', async () => {
    const signedOut = await contextFor(browser, world, undefined, 390);
    const signIn = await signedOut.newPage();
    await signIn.goto(`${world.base}/console/`);
    await signIn.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await seriousViolations(signIn)).toEqual([]);
    await signedOut.close();

    const context = await contextFor(browser, world, admin, 390);
    const page = await context.newPage();
    await page.goto(`${world.base}/console/devices`);
    await page.getByRole('button', { name: 'Register device' }).click();
    await page.getByRole('dialog', { name: 'Register device' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await context.close();
  });

  it('is used by keyboard: the skip link, the navigation and a dialog that Escape closes', async () => {
    const context = await contextFor(browser, world, admin);
    const page = await context.newPage();
    await page.goto(`${world.base}/console/`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Skip to content',
    );
    await page.getByRole('link', { name: 'Devices' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    await page.getByRole('button', { name: 'Register device' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Register device' });
    await dialog.waitFor();
    await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe(
      'device_id',
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });
});
