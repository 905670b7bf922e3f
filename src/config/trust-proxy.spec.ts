import { AppConfig } from './app-config';
import { validateEnv } from './env.validation';
import { parseTrustProxy } from './trust-proxy';

describe('TRUST_PROXY', () => {
  it.each([
    ['false', false],
    [' 2 ', 2],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
    [' loopback , linklocal, uniquelocal ', ['loopback', 'linklocal', 'uniquelocal']],
    ['10.0.0.0/8, 192.168.1.5', ['10.0.0.0/8', '192.168.1.5']],
    ['10.0.0.0/255.0.0.0', ['10.0.0.0/255.0.0.0']],
    ['2001:db8::/32,::1', ['2001:db8::/32', '::1']],
    ['::ffff:10.0.0.0/104', ['::ffff:10.0.0.0/104']],
  ])('accepts %j as Express does', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
    expect(AppConfig.fromEnv({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ['true', /true/],
    ['0.0.0.0/1,128.0.0.0/1', /"0\.0\.0\.0\/1" trusts a range wider/],
    ['10.0.0.0/8,172.0.0.0/7', /"172\.0\.0\.0\/7"/],
    ['0.0.0.0/0.0.0.0', /"0\.0\.0\.0\/0\.0\.0\.0"/],
    ['::/0', /"::\/0"/],
    ['2000::/3', /"2000::\/3"/],
    ['::ffff:0.0.0.0/96', /"::ffff:0\.0\.0\.0\/96"/],
    ['::/32', /"::\/32"/],
    ['loopback,everything', /"everything" is not/],
    ['10.0.0.0/33', /"10\.0\.0\.0\/33"/],
    ['127.1', /"127\.1"/],
  ])('refuses %j, naming the range', (value, message) => {
    expect(() => validateEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    expect(() => validateEnv({ TRUST_PROXY: value })).toThrow(message);
  });
});
