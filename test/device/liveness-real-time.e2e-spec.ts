import { addEndpoint } from '../outgoing-webhooks/support';
import { signIn } from '../support/auth';
import { deviceToken } from '../support/devices';
import { createDevice } from '../support/factories';
import { LIFECYCLE_ENV } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';
import { eventually, verifies, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Contract section 10, "Liveness", on the real clock and the server's own timer: a device that
 * goes quiet for the threshold (2 s, the least) is reported offline by the next pass (every 1 s).
 */
describe('device liveness, in real time', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      env: {
        ...LIFECYCLE_ENV,
        DEVICE_OFFLINE_AFTER_SECONDS: '2',
        DEVICE_LIVENESS_INTERVAL_SECONDS: '1',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('sends device.offline once a device has been quiet for its threshold', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const { secret } = await addEndpoint(t, admin.cookie, {
      url: receiver.url,
      event_types: ['device.offline'],
    });
    const device = await createDevice(t.app, admin.user.orgId);
    await deviceToken(t, device);
    const seenAt = Date.now();
    const d = await eventually('device.offline', () =>
      receiver.of('device.offline').find((x) => x.json.data.device_id === device.deviceId),
    );
    // Not before the threshold; by a pass's interval (and a delivery) after it.
    expect(Date.now() - seenAt).toBeGreaterThanOrEqual(1900);
    expect(verifies(secret, d)).toBe(true);
    expect(d.json.data).toMatchObject({ health: 'offline', org_id: admin.user.orgId });
  });
});
