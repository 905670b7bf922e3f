import { randomUUID } from 'node:crypto';
import { signIn } from '../support/auth';
import { capturedLogs, waitForAccessLine } from '../support/captured-logs';
import { createOrg } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';
import { WEBHOOK_ENV } from '../support/webhook';

interface Line {
  level: number;
  audit?: string;
  actor?: string;
  ip?: string;
  [field: string]: unknown;
}

/**
 * The security events of docs/operations.md each leave an `audit` line with who (`actor`),
 * what, and the client address; read from the app's own log output.
 */
describe('audit lines', () => {
  let t: TestApp;
  const { lines, options } = capturedLogs();
  beforeAll(async () => {
    t = await createTestApp({ ...options, env: { ...options.env, ...WEBHOOK_ENV } });
  });
  afterAll(() => t.close());

  /** The audit lines of the one request sent since `from`, once its access line (the last) is out. */
  async function auditSince(from: number): Promise<Line[]> {
    return (await waitForAccessLine<Line>(lines, undefined, { from })).filter(
      (l) => l.audit !== undefined,
    );
  }

  it('role changed, account disabled and its sessions revoked: by whom, to whom, from where', async () => {
    const org = await createOrg(t.app);
    const admin = await signIn(t, { orgId: org.id, role: 'admin' });
    const target = await signIn(t, { orgId: org.id, role: 'member' });
    let from = lines.length;
    await t
      .http()
      .patch(`/api/v1/users/${target.user.id}`)
      .set('Cookie', admin.cookie)
      .send({ role: 'admin' })
      .expect(200);
    expect(await auditSince(from)).toEqual([
      expect.objectContaining({
        level: 30,
        audit: 'role_changed',
        actor: admin.user.id,
        user_id: target.user.id,
        from: 'member',
        to: 'admin',
        ip: expect.stringMatching(/127\.0\.0\.1/),
      }),
    ]);
    from = lines.length;
    await t
      .http()
      .patch(`/api/v1/users/${target.user.id}`)
      .set('Cookie', admin.cookie)
      .send({ disabled: true })
      .expect(200);
    const written = await auditSince(from);
    expect(written.map((l) => l.audit)).toEqual(['account_disabled', 'session_revoked']);
    for (const line of written) {
      expect(line).toMatchObject({ actor: admin.user.id, user_id: target.user.id });
      expect(line.ip).toMatch(/127\.0\.0\.1/);
    }
  });

  it('a signed-out session', async () => {
    const me = await signIn(t);
    const from = lines.length;
    await t.http().post('/api/auth/logout').set('Cookie', me.cookie).expect(204);
    expect(await auditSince(from)).toEqual([
      expect.objectContaining({
        audit: 'session_revoked',
        actor: me.user.id,
        reason: 'logout',
        ip: expect.stringMatching(/127\.0\.0\.1/),
      }),
    ]);
  });

  it('a device registered and deactivated', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const deviceId = `dev-${randomUUID().slice(0, 8)}`;
    let from = lines.length;
    await t
      .http()
      .post('/api/v1/devices')
      .set('Cookie', admin.cookie)
      .send({ device_id: deviceId, model: 'M-1', provider: 'acme' })
      .expect(201);
    expect(await auditSince(from)).toEqual([
      expect.objectContaining({
        audit: 'device_registered',
        actor: admin.user.id,
        device_id: deviceId,
        ip: expect.stringMatching(/127\.0\.0\.1/),
      }),
    ]);
    from = lines.length;
    await t.http().delete(`/api/v1/devices/${deviceId}`).set('Cookie', admin.cookie).expect(204);
    expect(await auditSince(from)).toEqual([
      expect.objectContaining({
        audit: 'device_deactivated',
        actor: admin.user.id,
        device_id: deviceId,
        ip: expect.stringMatching(/127\.0\.0\.1/),
      }),
    ]);
  });

  it('a refused webhook signature', async () => {
    const from = lines.length;
    await t
      .http()
      .post('/api/payment-processor/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=00')
      .send('{}')
      .expect(400);
    expect(await auditSince(from)).toEqual([
      expect.objectContaining({
        audit: 'webhook_signature_refused',
        actor: 'processor',
        ip: expect.stringMatching(/127\.0\.0\.1/),
      }),
    ]);
  });

  it('logs expected 4xx at info, and 502/503 at warn without a stack', async () => {
    let from = lines.length;
    await t.http().get('/api/v1/org').expect(401);
    const access = await waitForAccessLine<Line>(lines, undefined, { from });
    expect(access.find((l) => l.msg === 'request completed')).toMatchObject({ level: 30 });
    from = lines.length;
    // Checkout is not configured in this app: an expected 503.
    await t.http().post('/api/lease/checkout').send({}).expect(503);
    const errored = await waitForAccessLine<Line>(lines, undefined, { from });
    expect(errored.filter((l) => l.level >= 50)).toEqual([]);
    const line = errored.find((l) => (l.res as { statusCode?: number })?.statusCode === 503);
    expect(line).toMatchObject({ level: 40 });
    expect(line).not.toHaveProperty('err');
  });
});
