/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../support/browser';
import { embeddedRun } from '../support/test-app';
import { contextFor, startConsoleWorld, type ConsoleWorld, type Session } from '../support/console';
import { createDevice, createPendingSubscription } from '../support/factories';

// What a page is made of does not depend on the database: CI runs these once, on the embedded
// run; the console's flows (console.browser.e2e-spec.ts) run on both.
const describeBrowser = browserAvailable() && embeddedRun() ? describe : describe.skip;

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
  const ids = { record: '', endpoint: '' };
  /** Each page, by its heading, and its path once the data exists. */
  const PAGES: [heading: string, path: () => string][] = [
    ['Overview', () => '/'],
    ['Devices', () => '/devices'],
    ['Subscriptions', () => '/subscriptions'],
    ['Subscription', () => `/subscriptions/${ids.record}`],
    ['Webhooks', () => '/webhooks'],
    ['Webhook endpoint', () => `/webhooks/${ids.endpoint}`],
    ['People', () => '/people'],
    ['Audit', () => '/audit'],
    ['Settings', () => '/settings'],
  ];

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
    ids.record = record.id;
    ids.endpoint = endpoint.body.id as string;
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it.each(PAGES)(
    '%s, at 1 280 and 390 px: no serious or critical violation, no sideways scroll',
    async (heading, path) => {
      const found: string[] = [];
      for (const width of [1280, 390]) {
        const context = await contextFor(browser, world, admin, width);
        const page = await context.newPage();
        await page.goto(`${world.base}/console${path()}`);
        await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
        await page.getByText('Loading…').waitFor({ state: 'detached' });
        found.push(...(await seriousViolations(page)).map((v) => `${width} px: ${v}`));
        if (await scrollsSideways(page)) found.push(`${width} px: the page scrolls sideways`);
        await context.close();
      }
      expect(found).toEqual([]);
    },
    60_000,
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

    // The checker itself: a field without a name planted in the page is found.
    await page.evaluate(() =>
      document.querySelector('dialog form')?.append(document.createElement('input')),
    );
    expect((await seriousViolations(page)).join()).toMatch(/^label:/);
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
