/// <reference lib="dom" />
// page.evaluate() callbacks run in the browser, so this file sees the DOM types.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshotPath } from '../support/browser';
import { contextFor, openConsole, startConsoleWorld, type ConsoleWorld } from '../support/console';
import { deviceToken } from '../support/devices';
import { createDevice, createOrg, createPendingSubscription } from '../support/factories';

const describeBrowser = browserAvailable() ? describe : describe.skip;
const XSS = '<img src=x onerror="window.__xss=1">';

/** What the browser keeps of a site besides cookies: must be nothing of the care data, nor tokens. */
async function webStorage(page: Page): Promise<{ local: number; session: string[]; idb: number }> {
  return page.evaluate(async () => ({
    local: window.localStorage.length,
    session: Object.keys(window.sessionStorage),
    idb: (await window.indexedDB.databases()).length,
  }));
}

describeBrowser('the operators’ console in Chromium', () => {
  let browser: Browser;
  let world: ConsoleWorld;

  beforeAll(async () => {
    world = await startConsoleWorld();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it('signs in through the provider’s real code flow with PKCE, and keeps no token in the page', async () => {
    const org = await createOrg(world.t.app);
    const email = `first.admin.${Date.now()}@example.com`;
    await world.session({ orgId: org.id, email, role: 'admin' }); // the account exists
    const context = await contextFor(browser, world, undefined);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on(
      'console',
      (m) => m.text().includes('Content Security Policy') && violations.push(m.text()),
    );

    const first = await page.goto(`${world.base}/console/devices`);
    expect(first?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.href.startsWith(world.idp.client.issuer));
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Back where the sign-in started, signed in.
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/devices');
    await expect(page.getByText(email).isVisible()).resolves.toBe(true);
    expect(await webStorage(page)).toEqual({ local: 0, session: [], idb: 0 });
    const cookies = await context.cookies(world.base);
    expect(cookies.find((c) => c.name === world.t.config.session.cookieName)?.httpOnly).toBe(true);
    expect(violations).toEqual([]);

    // Sign out ends the session at the service: a reload shows the sign-in page.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('a 401 returns to the sign-in page once, without a trip to the provider', async () => {
    const admin = await world.session();
    const context = await contextFor(browser, world, admin);
    const page = await openConsole(context, world, '/', 'Overview');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await world.t
      .http()
      .post('/api/auth/logout')
      .set('Cookie', admin.cookie)
      .set('Origin', world.base)
      .expect(204);

    await page.getByRole('link', { name: 'Devices' }).click();
    await page.getByText('Your session has ended').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(500);
    expect(requests.filter((u) => u.startsWith(world.idp.client.issuer))).toEqual([]);
    expect(requests.filter((u) => u.endsWith('/api/auth/me')).length).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('Devices: the table, the Health filter, Register device, Import CSV and Deactivate', async () => {
    const admin = await world.session();
    const quiet = await createDevice(world.t.app, admin.orgId, { model: XSS });
    // A few that report, as firmware does: health, battery and firmware in the table.
    for (const [k, battery] of [84, 12, 67].entries()) {
      const device = await createDevice(world.t.app, admin.orgId, {
        deviceId: `${quiet.deviceId}-hub-${k}`,
      });
      await world.t
        .http()
        .post('/api/device/v1/heartbeat')
        .set('Authorization', `Bearer ${await deviceToken(world.t, device)}`)
        .send({ battery_pct: battery, firmware_version: '2.4.1' })
        .expect(204);
    }
    const context = await contextFor(browser, world, admin);
    const page = await openConsole(context, world, '/devices', 'Devices');
    const row = page.getByRole('row', { name: new RegExp(quiet.deviceId) });
    await row.getByRole('cell', { name: XSS, exact: true }).waitFor();
    await row.getByText('Never seen').waitFor();
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    await page
      .getByRole('row', { name: new RegExp(`${quiet.deviceId}-hub-1`) })
      .getByText('12 %')
      .waitFor();
    await page.screenshot({ path: screenshotPath('console-devices'), fullPage: true });

    await page.getByRole('button', { name: 'Register device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register device' });
    await dialog.getByLabel('Device ID').fill(`${quiet.deviceId}-new`);
    await dialog.getByLabel('Model').fill('hub-3');
    await dialog.getByLabel('Provider').fill('acme');
    await dialog.getByRole('button', { name: 'Register' }).click();
    await page.getByText(`Device ${quiet.deviceId}-new registered.`).waitFor();

    // One bad row: nothing written, the error at the file's line.
    const bad = `device_id,model,provider\n${quiet.deviceId}-a,hub-2,acme\nbad id!,hub-2,acme\n`;
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await (
      await chooser
    ).setFiles({ name: 'devices.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByText(/Line 3: /).waitFor();
    await world.t
      .http()
      .get(`/api/v1/devices?limit=200`)
      .set('Cookie', admin.cookie)
      .expect(200)
      .then((r) => expect(JSON.stringify(r.body)).not.toContain(`${quiet.deviceId}-a`));

    await page.getByLabel('Health').selectOption({ label: 'Offline' });
    await page.waitForURL(/health=offline/);
    await page.getByText('No devices here yet.').waitFor();
    await page.goBack();
    await page
      .getByRole('row', { name: new RegExp(quiet.deviceId) })
      .first()
      .waitFor();

    await page.getByRole('button', { name: `Deactivate ${quiet.deviceId}`, exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText(`Device ${quiet.deviceId} deactivated.`).waitFor();
    await context.close();
  });

  it('a member sees Overview and Devices only, and the API still refuses the rest', async () => {
    const member = await world.session({ role: 'member' });
    const context = await contextFor(browser, world, member);
    const page = await openConsole(context, world, '/', 'Overview');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Overview', 'Devices']);
    await page.getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    expect(await page.getByRole('button', { name: 'Register device' }).count()).toBe(0);
    await page.goto(`${world.base}/console/people`);
    await page.getByText('This needs the admin role in your organization.').waitFor();
    await context.close();
  });

  it('Subscriptions and a record: labels, Ship device, Export, Erase refused while paid, text as text', async () => {
    const admin = await world.session({ orgId: world.fulfilmentOrgId });
    const device = await createDevice(world.t.app, world.fulfilmentOrgId);
    const record = await createPendingSubscription(world.t.app, {
      status: 'paid',
      paidAt: new Date(),
      customerName: XSS,
      customerEmail: `family.${Date.now()}@example.com`,
      customerPhone: '+1 217 555 0100',
      recipientName: 'Ruth Walker',
      livingSituation: 'livesalone',
      primaryConcern: 'memorysupport',
      recipientZip: '62701',
      shippingName: 'Ruth Walker',
      shippingAddress: '1 Main St, Apt 2, Springfield, IL 62701, US',
    });
    const context = await contextFor(browser, world, admin);
    const page = await openConsole(context, world, '/subscriptions', 'Subscriptions');
    await page.getByLabel('Status').selectOption({ label: 'Paid' });
    await page.getByRole('link', { name: XSS }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Subscription' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/subscriptions/${record.id}`);
    await page.getByText('Lives alone').waitFor();
    await page.getByText('Memory and cognitive support').waitFor();
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

    // The suggestions: active devices no live record holds.
    const ship = page.getByRole('dialog', { name: 'Ship device' });
    const suggested = async () => {
      await ship.getByText(/free devices; type or pick one/).waitFor();
      return ship
        .locator('datalist option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    };
    await page.getByRole('button', { name: 'Ship device' }).click();
    expect(await suggested()).toContain(device.deviceId);
    await ship.getByLabel('Device').fill(device.deviceId);
    await ship.getByLabel('Carrier').fill('UPS');
    await ship.getByLabel('Tracking number').fill('1Z999');
    await ship.getByRole('button', { name: 'Ship' }).click();
    await page.getByText('The device is recorded as shipped.').waitFor();
    await page.getByText(device.deviceId).waitFor();
    await page.getByRole('button', { name: 'Ship device' }).click();
    expect(await suggested()).not.toContain(device.deviceId);
    await ship.getByRole('button', { name: 'Cancel' }).click();
    await page.screenshot({ path: screenshotPath('console-subscription'), fullPage: true });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const exported = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as {
      subscription: { id: string };
    };
    expect(exported.subscription.id).toBe(record.id);

    await page.getByRole('button', { name: 'Erase' }).click();
    const erase = page.getByRole('dialog', { name: 'Erase this record?' });
    await expect(erase.getByRole('button', { name: 'Erase' }).isDisabled()).resolves.toBe(true);
    await erase.getByLabel('Type ERASE to confirm').fill('ERASE');
    await erase.getByRole('button', { name: 'Erase' }).click();
    await erase.getByText('This record cannot be erased now').waitFor();
    await page.keyboard.press('Escape');
    expect(await webStorage(page)).toEqual({ local: 0, session: [], idb: 0 });
    await context.close();
  });

  it('Webhooks: Add endpoint shows the secret once with Copy; People; Audit; Settings', async () => {
    const admin = await world.session();
    const context = await contextFor(browser, world, admin);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.base });
    const page = await openConsole(context, world, '/webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add endpoint' });
    await add.getByLabel('URL').fill('https://hooks.example.com/device-care');
    await add.getByRole('group', { name: 'Event types' }).getByLabel('device.offline').check();
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: 'https://hooks.example.com/device-care' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('The endpoint is disabled.').waitFor();

    await page.getByRole('link', { name: 'People' }).click();
    await page.getByRole('button', { name: 'Add person' }).click();
    const person = page.getByRole('dialog', { name: 'Add person' });
    const email = `new.person.${Date.now()}@example.com`;
    await person.getByLabel('Email').fill(email);
    await person.getByRole('button', { name: 'Add' }).click();
    await page.getByText(`${email} can now sign in.`).waitFor();
    await page.getByLabel(`Role of ${email}`).selectOption({ label: 'Admin' });
    await page.getByText(`${email} is now admin.`).waitFor();
    await page.getByRole('button', { name: `Disable ${email}` }).click();
    await page.getByText(`${email} is disabled and signed out.`).waitFor();

    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByLabel('Action').fill('user.role_changed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page
      .getByRole('row', { name: /user\.role_changed/ })
      .first()
      .waitFor();

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Minutes without contact').fill('10');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Devices count as offline after 10 minutes without contact.').waitFor();
    const org = await world.t.http().get('/api/v1/org').set('Cookie', admin.cookie).expect(200);
    expect(org.body.device_offline_after_seconds).toBe(600);
    await context.close();
  });
});
