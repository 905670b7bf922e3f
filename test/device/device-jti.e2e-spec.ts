import { getRepositoryToken } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { DeviceAssertionJti } from '../../src/device/tokens/device-assertion-jti.entity';
import { Housekeeping } from '../../src/database/housekeeping.service';
import type { Device } from '../../src/device/device.entity';
import { deviceKeyPair, DeviceKeyPair, provedClaim } from '../support/devices';
import { createDevice, createOrg } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

describe('assertion ids are used once across instances (two apps, one database)', () => {
  let a: TestApp;
  let b: TestApp;
  let device: Device;
  let pair: DeviceKeyPair;
  beforeAll(async () => {
    // Each app has its own pool (of one, on the embedded server) and its own rate-limit counters.
    a = await createTestApp();
    b = await createTestApp();
    pair = deviceKeyPair('ec');
    device = await createDevice(a.app, (await createOrg(a.app)).id, { publicKey: pair.jwk });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const auth = (t: TestApp, body: object) => t.http().post('/auth/device').send(body);

  it('refuses on one instance a jti the other accepted', async () => {
    const claim = await provedClaim(a, device, pair);
    await auth(a, claim).expect(200);
    const replay = await auth(b, claim);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('invalid_device');
    // And the other way round.
    const second = await provedClaim(a, device, pair);
    await auth(b, second).expect(200);
    expect((await auth(a, second)).status).toBe(401);
  });

  it('lets exactly one of two simultaneous uses of one assertion through', async () => {
    for (let round = 0; round < 5; round++) {
      const claim = await provedClaim(a, device, pair);
      const statuses = (await Promise.all([auth(a, claim), auth(b, claim)])).map((r) => r.status);
      expect(statuses.sort()).toEqual([200, 401]);
    }
  });

  it("drops a device's expired ids when it next signs in, and the rest in batches", async () => {
    const rows = a.app.get<Repository<DeviceAssertionJti>>(getRepositoryToken(DeviceAssertionJti));
    const [{ id: devicePk }] = await rows.query<{ id: string }[]>(
      'SELECT id FROM devices WHERE device_id = $1',
      [device.deviceId],
    );
    const expiredIds = (prefix: string) =>
      rows.insert(
        Array.from({ length: 5 }, (_, i) => ({
          devicePk,
          jti: `${prefix}-${i}`,
          expiresAt: new Date('2001-01-01T00:00:00Z'),
        })),
      );
    const expiredLeft = async () =>
      (await rows.findBy({ devicePk })).filter((r) => r.expiresAt.getFullYear() === 2001).length;

    await expiredIds('signed-in');
    const live = await provedClaim(a, device, pair);
    await auth(a, live).expect(200);
    expect(await expiredLeft()).toBe(0);

    // A device that stopped signing in: the periodic housekeeping pass clears its ids.
    await expiredIds('idle');
    expect((await a.app.get(Housekeeping).runOnce()).deleted.device_jtis).toBeGreaterThanOrEqual(5);
    expect(await expiredLeft()).toBe(0);
    // The live assertion's id is kept: a replay is still refused.
    expect((await auth(b, live)).status).toBe(401);
  });
});
