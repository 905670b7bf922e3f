import { decodeKeysetCursor, encodeKeysetCursor } from '../../common/pagination/keyset-cursor';
import { DEVICE_ORDER } from './device-cursor';

const encode = (deviceId: string) => encodeKeysetCursor(DEVICE_ORDER.positionOf({ deviceId }));
const decode = (cursor: string) => decodeKeysetCursor(cursor, DEVICE_ORDER.read)?.after;

describe('device list cursor', () => {
  it('round-trips a device_id through an opaque URL-safe string', () => {
    const cursor = encode('sensor-01:a.b_c');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('sensor');
    expect(decode(cursor)).toBe('sensor-01:a.b_c');
  });

  it.each([
    ['not base64url', 'abc$%'],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['JSON but not an object', Buffer.from('42').toString('base64url')],
    ['an unknown version', Buffer.from('{"v":2,"after":"a"}').toString('base64url')],
    ['a non-canonical id', Buffer.from('{"v":1,"after":"UPPER"}').toString('base64url')],
    ['a non-string id', Buffer.from('{"v":1,"after":7}').toString('base64url')],
    ['an over-long value', 'a'.repeat(401)],
    ['an empty value', ''],
  ])('refuses %s', (_label, cursor) => {
    expect(decode(cursor)).toBeUndefined();
  });
});
