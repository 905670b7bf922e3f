import { DataSource } from 'typeorm';
import type { DeviceListDto, DeviceListItemDto } from '../../src/device/registry/device-view.dto';
import { createDevice, createOrg } from '../support/factories';
import { signIn } from '../support/auth';
import { deviceToken } from '../support/devices';
import { createTestApp, TestApp } from '../support/test-app';

describe('GET /api/v1/devices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const list = (cookie: string, query = '') =>
    t.http().get(`/api/v1/devices${query}`).set('Cookie', cookie).set('Accept', 'application/json');

  /** Every device_id the session can see, following next_cursor to the end. */
  async function walk(cookie: string, limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await list(cookie, query).expect(200);
      const body = res.body as DeviceListDto;
      expect(body.items.length).toBeLessThanOrEqual(limit);
      ids.push(...body.items.map((d) => d.device_id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor !== null && pages < 100);
    return { ids, pages };
  }

  it("shows the session's organization's devices and never another org's", async () => {
    const a = await signIn(t, { role: 'member' });
    const b = await signIn(t, { role: 'member' });
    const mine = [await createDevice(t.app, a.user.orgId), await createDevice(t.app, a.user.orgId)];
    const theirs = [await createDevice(t.app, b.user.orgId)];
    const res = await list(a.cookie).expect(200);
    expect(res.body.next_cursor).toBeNull();
    expect((res.body as DeviceListDto).items.map((d) => d.device_id).sort()).toEqual(
      mine.map((d) => d.deviceId).sort(),
    );
    const other = await list(b.cookie).expect(200);
    expect((other.body as DeviceListDto).items.map((d) => d.device_id)).toEqual([
      theirs[0].deviceId,
    ]);
  });

  it('describes each device with exactly the contract fields', async () => {
    const a = await signIn(t);
    const device = await createDevice(t.app, a.user.orgId, { model: 'hub-9', provider: 'lumen' });
    const res = await list(a.cookie).expect(200);
    expect(res.body.items).toEqual([
      {
        device_id: device.deviceId,
        model: 'hub-9',
        provider: 'lumen',
        status: 'active',
        last_seen_at: null,
        created_at: device.createdAt.toISOString(),
        health: 'never_seen',
        battery_pct: null,
        firmware_version: null,
      } satisfies DeviceListItemDto,
    ]);
  });

  // The list's times are text made by PostgreSQL (device.service.ts); the other answers print the
  // driver's Date. Both must read the same, microseconds and offsets included.
  it('writes times as the Date the driver parses would print them', async () => {
    const a = await signIn(t);
    const device = await createDevice(t.app, a.user.orgId);
    const db = t.app.get(DataSource);
    await db.query(
      `UPDATE devices SET created_at = '2026-01-02 03:04:05.678999+05',
         last_seen_at = '1999-12-31 23:59:59.9999-00:30' WHERE id = $1`,
      [device.id],
    );
    const [row] = await db.query<{ created_at: Date; last_seen_at: Date }[]>(
      'SELECT created_at, last_seen_at FROM devices WHERE id = $1',
      [device.id],
    );
    const res = await list(a.cookie).expect(200);
    expect(res.body.items[0]).toMatchObject({
      created_at: row.created_at.toISOString(),
      last_seen_at: row.last_seen_at.toISOString(),
    });
    expect(res.body.items[0]).toMatchObject({
      created_at: '2026-01-01T22:04:05.678Z',
      last_seen_at: '2000-01-01T00:29:59.999Z',
    });
  });

  it('pages through 5 devices with limit=2: each exactly once, ending with next_cursor null', async () => {
    const a = await signIn(t);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createDevice(t.app, a.user.orgId)).deviceId);
    // Another org's devices interleave in device_id order but must not appear.
    for (let i = 0; i < 3; i++) await createDevice(t.app, (await createOrg(t.app)).id);
    const { ids, pages } = await walk(a.cookie, 2);
    expect(pages).toBe(3);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect([...ids].sort()).toEqual([...created].sort());
    expect(ids).toEqual([...ids].sort()); // a stable order: device_id ascending
  });

  it('defaults to 50 per page and allows up to 200', async () => {
    const a = await signIn(t);
    for (let i = 0; i < 51; i++) await createDevice(t.app, a.user.orgId);
    const first = await list(a.cookie).expect(200);
    expect(first.body.items).toHaveLength(50);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const rest = await list(a.cookie, `?cursor=${first.body.next_cursor}`).expect(200);
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.next_cursor).toBeNull();
    const all = await list(a.cookie, '?limit=200').expect(200);
    expect(all.body.items).toHaveLength(51);
    expect(all.body.next_cursor).toBeNull();
  });

  it('answers a bad limit or cursor with 400 validation_failed', async () => {
    const a = await signIn(t);
    const forged = Buffer.from('{"v":1,"after":"NOT canonical"}').toString('base64url');
    for (const query of [
      '?limit=0',
      '?limit=201',
      '?limit=abc',
      '?limit=2.5',
      '?cursor=%%%',
      '?cursor=not-a-cursor',
      `?cursor=${forged}`,
      '?unknown=1',
    ]) {
      const res = await list(a.cookie, query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.code).toBe('validation_failed');
    }
    const res = await list(a.cookie, '?cursor=not-a-cursor');
    expect(res.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  });

  it('needs a session: 401 without one', async () => {
    const res = await t.http().get('/api/v1/devices');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it('shows the last heartbeat as last_seen_at', async () => {
    const a = await signIn(t);
    const device = await createDevice(t.app, a.user.orgId);
    const before = (await list(a.cookie).expect(200)).body as DeviceListDto;
    expect(before.items[0].last_seen_at).toBeNull();
    const token = await deviceToken(t, device);
    await t
      .http()
      .post('/api/device/v1/heartbeat')
      .set('Authorization', `Bearer ${token}`)
      .send({ battery_pct: 40 })
      .expect(204);
    const after = (await list(a.cookie).expect(200)).body as DeviceListDto;
    expect(after.items[0].device_id).toBe(device.deviceId);
    expect(after.items[0].last_seen_at).toEqual(expect.any(String));
    expect(new Date(String(after.items[0].last_seen_at)).toISOString()).toBe(
      after.items[0].last_seen_at,
    );
  });
});
