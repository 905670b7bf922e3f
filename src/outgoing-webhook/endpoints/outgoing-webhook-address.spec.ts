import { AddressRefused, checkTarget, checkUrl, isPublicAddress } from './outgoing-webhook-address';

describe('outgoing webhook address rules', () => {
  it('refuses every non-public range and allows public unicast', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '100.64.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) {
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
    }
  });

  it('needs https unless private targets are allowed, and no credentials', () => {
    expect(() => checkUrl('http://example.com/', false)).toThrow(AddressRefused);
    expect(checkUrl('http://example.com/', true).host).toBe('example.com');
    expect(() => checkUrl('https://u:p@example.com/', true)).toThrow(AddressRefused);
    expect(() => checkUrl('ftp://example.com/', true)).toThrow(AddressRefused);
  });

  it('checks every address a name resolves to, and pins the first', async () => {
    const stub = (addresses: string[]) => () =>
      Promise.resolve(addresses.map((address) => ({ address, family: 4 as const })));
    const url = new URL('https://hooks.example.com/in');
    await expect(checkTarget(url, false, stub(['93.184.216.34']))).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(checkTarget(url, false, stub(['93.184.216.34', '10.0.0.1']))).rejects.toThrow(
      AddressRefused,
    );
    await expect(checkTarget(url, false, stub([]))).rejects.toThrow(/could not be resolved/);
    await expect(checkTarget(url, true, stub(['10.0.0.1']))).resolves.toMatchObject({
      address: '10.0.0.1',
    });
  });
});
