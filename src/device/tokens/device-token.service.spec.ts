import { timingSafeEqual } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { Repository } from 'typeorm';
import { DeviceError } from '../device.error';
import type { FailedAttempts } from '../../common/throttling/failed-attempts';
import { AppConfig } from '../../config/app-config';
import { DeviceAssertionVerifier, DeviceProofError } from './device-assertion.verifier';
import type { DeviceAudit } from '../device-audit';
import type { DeviceJtiStore } from './device-jti.store';
import type { DevicePresence } from '../liveness/device-presence.service';
import type { DeviceTokenEvents } from './device-token-events.service';
import { credentialsMatch, DeviceTokenService } from './device-token.service';
import type { Device, StoredDeviceKey } from '../device.entity';
import { DeviceTokenDto } from './device-auth.dto';

// Counts constant-time comparisons while still doing them.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});
const compared = timingSafeEqual as jest.MockedFunction<typeof timingSafeEqual>;

const registered = { model: 'hub-2', provider: 'acme', status: 'active' as const };
const claim = { model: 'hub-2', provider: 'acme' };

describe('credentialsMatch', () => {
  it('is true only for a found, active device with the same model and provider', () => {
    expect(credentialsMatch(registered, claim)).toBe(true);
    expect(credentialsMatch(null, claim)).toBe(false);
    expect(credentialsMatch({ ...registered, status: 'deactivated' }, claim)).toBe(false);
    expect(credentialsMatch(registered, { ...claim, model: 'hub-3' })).toBe(false);
    expect(credentialsMatch(registered, { ...claim, provider: 'Acme' })).toBe(false);
    expect(credentialsMatch(registered, { ...claim, model: 'hub-2 ' })).toBe(false);
    // The fields are compared as one text: no split of it matches another.
    const joined = { model: 'hub-2","acme', provider: '' };
    expect(credentialsMatch({ ...registered, provider: '' }, { ...claim, ...joined })).toBe(false);
    expect(credentialsMatch({ ...registered, model: 'hub', provider: '-2acme' }, claim)).toBe(
      false,
    );
  });

  it('does the same comparisons whichever part is wrong', () => {
    const cases: [Parameters<typeof credentialsMatch>[0], typeof claim][] = [
      [registered, claim],
      [null, claim],
      [{ ...registered, status: 'deactivated' }, claim],
      [registered, { ...claim, model: 'x' }],
      [registered, { ...claim, provider: 'a much longer provider name than the stored one' }],
    ];
    const counts = cases.map(([device, c]) => {
      compared.mockClear();
      credentialsMatch(device, c);
      return compared.mock.calls.length;
    });
    expect(counts).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('DeviceTokenService', () => {
  const env = {
    DEVICE_TOKEN_SECRET: 'unit-test-device-token-secret-0123456789',
    DEVICE_TOKEN_TTL_SECONDS: '120',
  };
  const NOW = new Date('2026-05-01T12:00:00Z');
  const nowSeconds = NOW.getTime() / 1000;
  const clock = { now: () => NOW };
  const key: StoredDeviceKey = { kty: 'OKP', crv: 'Ed25519', x: 'x', kid: 'k' };
  const row = {
    id: 'pk-1',
    deviceId: 'sensor-1',
    orgId: '6f1c1a52-0000-4000-8000-000000000001',
    ...registered,
    publicKey: null as StoredDeviceKey | null,
    publicKeyThumbprint: null as string | null,
  };
  const keyed = { ...row, publicKey: key, publicKeyThumbprint: 'thumb' };
  const verifyAssertion = jest.fn();
  const consume = jest.fn();
  const recordFailure = jest.fn();
  const assertNotBlocked = jest.fn();
  const tokenRefused = jest.fn();
  const contact = jest.fn();
  const tokenIssued = jest.fn();

  const service = (found: typeof row | null, extraEnv: Record<string, string> = {}) => {
    const config = AppConfig.fromEnv({ ...env, ...extraEnv });
    const query = jest.fn().mockResolvedValue({ rows: found ? [found] : [] });
    // The service reads through the pg pool behind TypeORM's driver (statement-rows.ts).
    const connection = { isInitialized: true, driver: { master: { query } } };
    const tokens = new DeviceTokenService(
      { manager: { dataSource: connection } } as unknown as Repository<Device>,
      config,
      clock,
      { verify: verifyAssertion } as unknown as DeviceAssertionVerifier,
      { consume } as unknown as DeviceJtiStore,
      { recordFailure, assertNotBlocked } as unknown as FailedAttempts,
      { tokenRefused } as unknown as DeviceAudit,
      { contact } as unknown as DevicePresence,
      { tokenIssued } as unknown as DeviceTokenEvents,
    );
    return { tokens, query, config };
  };
  const refusedWith = async (promise: Promise<unknown>, reason: string) => {
    const err = await promise.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    expect(err).toMatchObject({ code: 'invalid_device' });
    expect(tokenRefused).toHaveBeenLastCalledWith(expect.any(String), reason);
    expect(recordFailure).toHaveBeenCalled();
  };

  beforeEach(() => {
    jest.clearAllMocks();
    verifyAssertion.mockResolvedValue({
      jti: 'j-1',
      acceptableUntil: new Date(NOW.getTime() + 90_000),
    });
    consume.mockResolvedValue(true);
  });

  it("signs sub, org_id, aud, jti and exp with the configured key, at the clock's time (jose reads it)", async () => {
    const { tokens, config } = service(row);
    const out = await tokens.issue({ device_id: 'sensor-1', ...claim });
    const { payload, protectedHeader } = await jwtVerify(out.token, config.deviceToken.secret, {
      algorithms: ['HS256'],
      audience: 'device',
      currentDate: NOW,
    });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'device+jwt' });
    expect(payload).toMatchObject({ sub: 'sensor-1', org_id: row.orgId, iat: nowSeconds });
    expect(payload.exp).toBe(nowSeconds + 120);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload).not.toHaveProperty('cnf');
    expect(DeviceTokenDto.from(out)).toEqual({
      access_token: out.token,
      token_type: 'Bearer',
      expires_in: 120,
      expires_at: new Date((nowSeconds + 120) * 1000).toISOString(),
    });
    // A device without a key is held to the failed-attempts block.
    expect(assertNotBlocked).toHaveBeenCalledWith('deviceAuthPerMinute', 'sensor-1', undefined);
  });

  it('binds the token to the key (cnf.jkt) and skips the block when the device proved its key', async () => {
    const { tokens, config } = service(keyed);
    const out = await tokens.issue({ device_id: 'sensor-1', ...claim, assertion: 'a.b.c' });
    expect(verifyAssertion).toHaveBeenCalledWith('a.b.c', 'sensor-1', key);
    expect(consume).toHaveBeenCalledWith('pk-1', 'j-1', expect.any(Date));
    const { payload } = await jwtVerify(out.token, config.deviceToken.secret, {
      currentDate: NOW,
    });
    expect(payload.cnf).toEqual({ jkt: 'thumb' });
    expect(assertNotBlocked).not.toHaveBeenCalled();
    expect(recordFailure).not.toHaveBeenCalled();
  });

  it.each([
    ['an unknown device', null, {}, 'unknown_device'],
    ['a deactivated device', { ...row, status: 'deactivated' }, {}, 'deactivated'],
    ['another model', row, { model: 'hub-3' }, 'model_or_provider_mismatch'],
    ['an assertion for a device without a key', row, { assertion: 'a.b.c' }, 'no_key_registered'],
    ['a device with a key but no assertion', keyed, {}, 'assertion_missing'],
  ])('refuses %s, saying why in the audit line', async (_label, found, extra, reason) => {
    const { tokens } = service(found as typeof row | null);
    await refusedWith(tokens.issue({ device_id: 'sensor-1', ...claim, ...extra }), reason);
  });

  it('refuses a device without a key when DEVICE_REQUIRE_PROOF is on', async () => {
    const { tokens } = service(row, { DEVICE_REQUIRE_PROOF: 'true' });
    await refusedWith(tokens.issue({ device_id: 'sensor-1', ...claim }), 'proof_required');
  });

  it("refuses a bad assertion with the verifier's reason, and a used jti as replayed", async () => {
    const { tokens } = service(keyed);
    const ask = () => tokens.issue({ device_id: 'sensor-1', ...claim, assertion: 'a.b.c' });
    verifyAssertion.mockRejectedValueOnce(new DeviceProofError('bad_signature'));
    await refusedWith(ask(), 'bad_signature');
    consume.mockResolvedValueOnce(false);
    await refusedWith(ask(), 'replayed');
  });

  it('looks up an id that can never match instead of a non-canonical one', async () => {
    const { tokens, query } = service(null);
    await expect(tokens.issue({ device_id: 'A\u0000B', ...claim })).rejects.toBeInstanceOf(
      DeviceError,
    );
    expect(query).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledWith(expect.stringContaining('WHERE device_id = $1'), ['#']);
  });
});
