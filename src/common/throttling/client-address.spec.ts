import { addressGroup } from './client-address';

describe('addressGroup', () => {
  it('keeps IPv4 addresses apart, mapped or not', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('203.0.113.8')).not.toBe(addressGroup('203.0.113.7'));
  });

  it('groups IPv6 addresses by their /64', () => {
    const a = addressGroup('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(a);
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(a);
  });

  it('passes through what is not an address', () => {
    expect(addressGroup(undefined)).toBe('unknown');
    expect(addressGroup('')).toBe('unknown');
    expect(addressGroup('not-an-ip')).toBe('not-an-ip');
  });
});
