import { runCli } from '../support/cli';
import { createDevice, createOrg } from '../support/factories';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';
import { eventually, verifies, WebhookReceiver } from '../support/webhook-receiver';

describe('command line: webhook-endpoint:add, webhook-endpoint:list, webhook-delivery:retry', () => {
  let t: TestApp;
  let orgId: string;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp();
    orgId = (await createOrg(t.app)).id;
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('adds an endpoint (with its secret), lists it, and retries a delivery the server sends', async () => {
    const added = await runCli([
      'webhook-endpoint:add',
      '--org',
      orgId,
      '--url',
      receiver.url,
      '--event-types',
      'device.registered',
    ]);
    expect(added).toMatchObject({ code: 0 });
    const endpoint = JSON.parse(added.stdout ?? '') as { id: string; secret: string };
    expect(endpoint).toMatchObject({ url: receiver.url, event_types: ['device.registered'] });
    const listed = await runCli(['webhook-endpoint:list', '--org', orgId]);
    expect(JSON.parse(listed.stdout ?? '')).toEqual({
      items: [expect.objectContaining({ id: endpoint.id })],
    });
    expect(listed.stdout).not.toContain(endpoint.secret);

    await createDevice(t.app, orgId);
    const first = await eventually('delivered', () => receiver.received[0]);
    expect(verifies(endpoint.secret, first)).toBe(true);
    const eventId = String(first.headers['webhook-id']);
    const retried = await runCli([
      'webhook-delivery:retry',
      '--endpoint',
      endpoint.id,
      '--event',
      eventId,
    ]);
    expect(retried).toMatchObject({ code: 0 });
    await eventually('sent again', () => receiver.received.length === 2);
    expect(receiver.received[1].body).toBe(first.body);
  });

  it('refuses a type the organization may not receive, and an unknown delivery', async () => {
    const refused = await runCli([
      'webhook-endpoint:add',
      '--org',
      orgId,
      '--url',
      receiver.url,
      '--event-types',
      'subscription.paid',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/subscription\.paid/);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const retry = await runCli([
      'webhook-delivery:retry',
      '--endpoint',
      unknown,
      '--event',
      unknown,
    ]);
    expect(retry.code).toBe(1);
  });
});
