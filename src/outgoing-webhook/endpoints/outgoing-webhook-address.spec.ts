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

  it('refuses IPv6 outside global unicast, and v4 carried inside v6 unless that v4 is public', () => {
    for (const a of [
      '::127.0.0.1', // IPv4-compatible (::/96), which ipaddr.js calls unicast
      '::8.8.8.8', // IPv4-compatible even when the v4 is public: deprecated, never routed
      '::1:0:0:1', // ::/8, reserved by the IETF
      '::ffff:0:a00:1', // IPv4-translated (::ffff:0:0:0/96)
      '64:ff9b::a00:1', // NAT64 (64:ff9b::/96) of 10.0.0.1
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '64:ff9b:1::808:808', // local-use NAT64 (64:ff9b:1::/48)
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2001:0:4136:e378:8000:63bf:f5ff:fffe', // Teredo, client 10.0.0.1
      '2001:0:a00:1:8000:63bf:f7f7:f7f7', // Teredo, server 10.0.0.1
      '100::1', // discard
      '2001:db8::1', // documentation
      '3fff::1', // documentation (RFC 9637)
      '2001:2::1', // benchmarking
      '2001:10::1', // ORCHID
      'fec0::1', // site-local (deprecated)
      '5f00::1', // SRv6 SIDs
      '4000::1', // unassigned, outside 2000::/3
      'e000::1',
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
    for (const a of [
      '64:ff9b::808:808', // NAT64 of 8.8.8.8: what DNS64 answers on an IPv6-only network
      '2002:808:808::1', // 6to4 of 8.8.8.8
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo, server 65.54.227.120, client 8.8.8.8
      '2a00:1450:4001:80b::200e',
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
    }
  });

  it('judges the literal of a URL as the URL parser writes it', async () => {
    for (const raw of [
      'https://[::127.0.0.1]/',
      'https://[::1:0:0:1]/',
      'https://[::ffff:7f00:1]/',
    ]) {
      await expect(
        checkTarget(checkUrl(raw, false), false, () => Promise.resolve([])),
      ).rejects.toThrow(AddressRefused);
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
