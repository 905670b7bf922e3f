import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, newWebhookSecret } from './outgoing-webhook-secrets';

describe('webhook secrets at rest', () => {
  const key = randomBytes(32);

  it('round-trips under its key and never stores the secret in clear', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = encryptSecret(key, secret);
    expect(stored).not.toContain(secret.slice(6, 20));
    expect(decryptSecret(key, stored)).toBe(secret);
  });

  it('refuses another key and a changed text', () => {
    const stored = encryptSecret(key, newWebhookSecret());
    expect(() => decryptSecret(randomBytes(32), stored)).toThrow();
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptSecret(key, parts.join('.'))).toThrow();
  });
});
