import { runCli } from '../src/cli/cli-runner';
import { createOrg, unique } from './support/factories';
import { createTestApp, TestApp, testDatabaseUrl } from './support/test-app';

describe('command line: device:add', () => {
  let t: TestApp;
  let orgId: string;
  beforeAll(async () => {
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp();
    orgId = (await createOrg(t.app)).id;
  });
  afterAll(() => t.close());

  const add = (deviceId: string, org = orgId) =>
    runCli([
      'device:add',
      '--org',
      org,
      '--device-id',
      deviceId,
      '--model',
      'hub-2',
      '--provider',
      'acme',
    ]);

  it('registers a device that can then sign in', async () => {
    const deviceId = unique('cli');
    const result = await add(deviceId);
    expect(result.stderr).toBeUndefined();
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout ?? '')).toMatchObject({
      device_id: deviceId,
      org_id: orgId,
      model: 'hub-2',
      provider: 'acme',
      status: 'active',
    });
    const res = await t
      .http()
      .post('/auth/device')
      .send({ device_id: deviceId, model: 'hub-2', provider: 'acme' })
      .expect(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  it('exits 1 with the reason for a duplicate, an unknown org or a non-canonical id', async () => {
    const deviceId = unique('cli');
    expect((await add(deviceId)).code).toBe(0);
    const duplicate = await add(deviceId);
    expect(duplicate).toMatchObject({ code: 1 });
    expect(duplicate.stderr).toMatch(/already registered/);

    const noOrg = await add(unique('cli'), '00000000-0000-4000-8000-000000000000');
    expect(noOrg).toMatchObject({ code: 1 });
    expect(noOrg.stderr).toMatch(/No such organization/);

    const upper = await add('SENSOR-1');
    expect(upper).toMatchObject({ code: 1 });
    expect(upper.stderr).toMatch(/device_id must be canonical/);
  });

  it('exits 1 when a flag is missing', async () => {
    const result = await runCli(['device:add', '--org', orgId, '--device-id', unique('cli')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--model, --provider/);
  });
});
