import { isCanonicalDeviceId, TEXT_PATTERN } from './device.rules';

describe('device identity rules', () => {
  it('accepts canonical device ids only', () => {
    for (const ok of ['a', 'sensor-0042', 'mac:00:1a:2b', 'x.y_z', '0'.repeat(128)]) {
      expect(isCanonicalDeviceId(ok)).toBe(true);
    }
    for (const bad of ['', 'Sensor', '-lead', 'a b', 'a/b', 'a\u0000', '0'.repeat(129), 7]) {
      expect(isCanonicalDeviceId(bad)).toBe(false);
    }
  });

  it('accepts printable text without surrounding spaces', () => {
    expect(TEXT_PATTERN.test('Hub 2 (EU)')).toBe(true);
    expect(TEXT_PATTERN.test('Modèle ünï')).toBe(true);
    for (const bad of ['', ' hub', 'hub ', 'a\tb', 'a\u0000']) {
      expect(TEXT_PATTERN.test(bad)).toBe(false);
    }
  });
});
