import { createSecretKey } from 'node:crypto';
import { decode } from 'jsonwebtoken';
import { SignJWT } from 'jose';
import { deviceClaimsOf, signDeviceToken } from './device-token.jwt';

describe('the device token format', () => {
  const key = createSecretKey(Buffer.from('unit-test-device-token-secret-0123456789'));
  const content = {
    deviceId: 'sensor-1',
    orgId: '6f1c1a52-0000-4000-8000-000000000001',
    jkt: null as string | null,
    jti: '0b6a3c1e-8d2f-4c59-9a43-7f1e2d3c4b5a',
    issuedAt: 1_777_636_800,
    expiresAt: 1_777_637_700,
  };
  /** The token as jose's SignJWT made it before jsonwebtoken signed the device bearer. */
  const joseToken = (c: typeof content) =>
    new SignJWT({ org_id: c.orgId, ...(c.jkt ? { cnf: { jkt: c.jkt } } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'device+jwt' })
      .setSubject(c.deviceId)
      .setAudience('device')
      .setJti(c.jti)
      .setIssuedAt(c.issuedAt)
      .setExpirationTime(c.expiresAt)
      .sign(key);

  it('is byte for byte the token jose made, with and without a key binding', async () => {
    expect(signDeviceToken(content, key)).toBe(await joseToken(content));
    const bound = { ...content, jkt: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' };
    expect(signDeviceToken(bound, key)).toBe(await joseToken(bound));
  });

  it('reads the claims back, and nothing from a token of another kind', () => {
    const read = (header: object, payload: unknown) =>
      deviceClaimsOf({ header: { alg: 'HS256', ...header }, payload, signature: '' } as never, 0);
    const token = decode(signDeviceToken({ ...content, jkt: 't' }, key), { complete: true });
    expect(deviceClaimsOf(token!, content.issuedAt)).toEqual({
      deviceId: 'sensor-1',
      orgId: content.orgId,
      jkt: 't',
    });
    const claims = { sub: 's', org_id: 'o', jti: 'j', exp: 1 };
    expect(read({ typ: 'device+jwt' }, claims)).toEqual({ deviceId: 's', orgId: 'o' });
    expect(read({ typ: 'device+jwt' }, { ...claims, cnf: null })).toEqual({
      deviceId: 's',
      orgId: 'o',
    });
    expect(read({ typ: 'JWT' }, claims)).toBeNull();
    expect(read({ typ: 'device+jwt' }, 'a string payload')).toBeNull();
    expect(read({ typ: 'device+jwt' }, { ...claims, exp: '1' })).toBeNull();
    expect(read({ typ: 'device+jwt' }, { ...claims, sub: 1 })).toBeNull();
  });

  it('is current from `nbf` up to the second before `exp`, with no tolerance', () => {
    const at = (now: number, claims: object) =>
      deviceClaimsOf(
        {
          header: { alg: 'HS256', typ: 'device+jwt' },
          payload: { sub: 's', org_id: 'o', jti: 'j', exp: 100, ...claims },
          signature: '',
        },
        now,
      );
    expect(at(99, {})).not.toBeNull();
    expect(at(100, {})).toBeNull();
    expect(at(9, { nbf: 10 })).toBeNull();
    expect(at(10, { nbf: 10 })).not.toBeNull();
    expect(at(50, { nbf: '10' })).toBeNull();
    expect(at(50, { nbf: null })).toBeNull();
  });
});
