import { randomBytes } from 'node:crypto';
import type { DataKeyring } from '../../personal-data/data-keyring';

/** A new signing secret as integrators get it: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Wrapped by the master key like a data key, so `data:rekey` rewraps it too (docs/privacy.md). */
export function sealSecret(keyring: DataKeyring, plain: string): string {
  return keyring.wrap(Buffer.from(plain, 'utf8'));
}

/** Throws when no key this instance holds opens it, or the text was changed. */
export function openSecret(keyring: DataKeyring, stored: string): string {
  return keyring.unwrap(stored).toString('utf8');
}
