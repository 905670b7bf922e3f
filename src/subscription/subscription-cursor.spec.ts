import { decodeKeysetCursor, encodeKeysetCursor } from '../common/pagination/keyset-cursor';
import { SUBSCRIPTION_ORDER } from './subscription-cursor';

const decode = (cursor: string) => decodeKeysetCursor(cursor, SUBSCRIPTION_ORDER.read);

describe('subscription cursor', () => {
  const position = {
    at: '2026-11-23T08:52:23.123456Z',
    id: '7a0e3f8e-0000-4000-8000-000000000001',
  };

  it('round-trips the position, microseconds included', () => {
    expect(decode(encodeKeysetCursor(position))).toEqual(position);
  });

  it.each([
    ['not base64url', '!!!'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['another version', Buffer.from(JSON.stringify({ ...position, v: 2 })).toString('base64url')],
    ['milliseconds only', encodeKeysetCursor({ ...position, at: '2026-11-23T08:52:23.123Z' })],
    ['not a uuid', encodeKeysetCursor({ ...position, id: 'x' })],
    ['an impossible date', encodeKeysetCursor({ ...position, at: '2026-13-40T08:52:23.123456Z' })],
    ['February 30', encodeKeysetCursor({ ...position, at: '2026-02-30T08:52:23.123456Z' })],
    ['year 0', encodeKeysetCursor({ ...position, at: '0000-11-23T08:52:23.123456Z' })],
    ['a bare year', encodeKeysetCursor({ ...position, at: '2026' })],
  ])('refuses %s', (_what, cursor) => {
    expect(decode(cursor)).toBeUndefined();
  });
});
