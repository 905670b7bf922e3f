import { capturedLogs } from '../support/captured-logs';
import { createDevice, createOrg } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

describe('device tokens never reach the logs', () => {
  let t: TestApp;
  const { lines, options } = capturedLogs();
  beforeAll(async () => {
    t = await createTestApp(options);
  });
  afterAll(() => t.close());

  it('logs each request, and no part of the token', async () => {
    const device = await createDevice(t.app, (await createOrg(t.app)).id);
    const issued = await t
      .http()
      .post('/auth/device')
      .send({ device_id: device.deviceId, model: device.model, provider: device.provider })
      .expect(200);
    const token = issued.body.access_token as string;
    const bearer = `Bearer ${token}`;
    await t.http().get('/api/device/v1/self').set('Authorization', bearer).expect(200);
    await t
      .http()
      .post('/api/device/v1/heartbeat')
      .set('Authorization', bearer)
      .send({ battery_pct: 10 })
      .expect(204);
    await t.http().get('/api/device/v1/self').set('Authorization', `${bearer}x`).expect(401);

    // One access line per request, under the id the response echoed, with no headers.
    const self = await t.http().get('/api/device/v1/self').set('Authorization', bearer).expect(200);
    const access = lines
      .map((l) => JSON.parse(l) as { req?: { id?: string; url?: string; headers?: unknown } })
      .filter((l) => l.req?.id === self.headers['x-request-id']);
    expect(access).toHaveLength(1);
    expect(access[0].req).toMatchObject({ url: '/api/device/v1/self' });
    expect(access[0].req).not.toHaveProperty('headers');

    const log = lines.join('');
    expect(log).toContain('/api/device/v1/self'); // the capture works
    for (const part of token.split('.')) expect(log).not.toContain(part);
  });
});
