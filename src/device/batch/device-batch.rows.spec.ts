import { generateKeyPairSync } from 'node:crypto';
import { checkedRows } from './device-batch.rows';

const item = (deviceId: string, extra: Record<string, unknown> = {}) => ({
  device_id: deviceId,
  model: 'hub-2',
  provider: 'acme',
  ...extra,
});

const ecJwk = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });

describe('checkedRows', () => {
  it('keeps valid items with their index and their key, in order', async () => {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const { rows, errors } = await checkedRows([item('a-1'), item('a-2', { public_key: jwk })]);
    expect(errors).toEqual([]);
    expect(rows.map((r) => [r.index, r.deviceId, r.key?.jwk.crv])).toEqual([
      [0, 'a-1', undefined],
      [1, 'a-2', 'Ed25519'],
    ]);
  });

  it('gives every bad item one error with its index, the later of two equal ids included', async () => {
    const { rows, errors } = await checkedRows([
      item('a-1'),
      'not an object',
      item('a-1'),
      item('a-3', { ['x'.repeat(1000)]: 1 }),
      // Past the DTO (the right shape), refused by deviceKeyFrom: not a point on P-256.
      item('a-4', { public_key: { ...ecJwk(), y: Buffer.alloc(32, 1).toString('base64url') } }),
    ]);
    expect(rows.map((r) => r.index)).toEqual([0]);
    expect(errors.map((e) => [e.index, e.code])).toEqual(
      [1, 2, 3, 4].map((i) => [i, 'validation_failed']),
    );
    expect(errors[1].message).toBe('device_id appears earlier in the batch, at index 0');
    // A client's long field name is cut, not echoed whole.
    expect(errors[2].message.length).toBeLessThanOrEqual(300);
    expect(errors[3].message).toMatch(/public_key/);
  });
});
