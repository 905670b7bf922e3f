import { decodeDeviceCursor, encodeDeviceCursor } from './device-cursor';

describe('device list cursor', () => {
  it('round-trips a device_id through an opaque URL-safe string', () => {
    const cursor = encodeDeviceCursor('sensor-01:a.b_c');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('sensor');
    expect(decodeDeviceCursor(cursor)).toBe('sensor-01:a.b_c');
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
    expect(decodeDeviceCursor(cursor)).toBeUndefined();
  });
});
