import { ProbeController } from '../support/probe.controller';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Rate limits count per client address as Express resolves it under TRUST_PROXY. The probe route
 * allows 10 requests a minute per address.
 */
describe.each([
  ['unset', {}, false],
  ['1 (one hop)', { TRUST_PROXY: '1' }, true],
  ['subnets (loopback)', { TRUST_PROXY: '127.0.0.0/8,::1/128' }, true],
])('TRUST_PROXY %s', (_name, env: Record<string, string>, trusted) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env, extra: { controllers: [ProbeController] } });
  });
  afterAll(() => t.close());

  const from = (forwardedFor: string) =>
    t.http().post('/test/limited').set('X-Forwarded-For', forwardedFor);

  if (!trusted) {
    it('limits by the real address: a forged X-Forwarded-For buys nothing', async () => {
      for (let i = 0; i < 10; i++) await from(`10.0.0.${i}`).expect(200);
      const res = await from('10.9.9.9');
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('rate_limited');
    });
    return;
  }

  it('limits by the forwarded address, each client on its own', async () => {
    for (let i = 0; i < 10; i++) await from('10.0.0.1').expect(200);
    expect((await from('10.0.0.1')).status).toBe(429);
    // Another client behind the same proxy is not affected.
    await from('10.0.0.2').expect(200);
  });

  it('takes the address the proxy added, not the ones the client wrote before it', async () => {
    for (let i = 0; i < 10; i++) await from('10.0.0.3').expect(200);
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the address it saw.
    const res = await from('6.6.6.6, 10.0.0.3');
    expect(res.status).toBe(429);
  });
});
