import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Node's AES-256-GCM, in two text formats (docs/privacy.md): a key wrapped by a master key names
 * that key (`k1.<kid>.…`), so rekey finds what is not yet under the current one; a sealed value
 * is bound to its owner (the subscription id as associated data), so it cannot be moved to another row.
 */
const WRAPPED = 'k1';
const SEALED = 's1';

/** Short, public name of a master key: the first 8 bytes of a hash, never the key. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('device-care key id\0').update(key).digest('hex').slice(0, 16);
}

export function newDataKey(): Buffer {
  return randomBytes(32);
}

function encrypt(key: Buffer, plain: Buffer, aad?: string): string[] {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
}

/** Throws when the key is not the one, or the text or its owner was changed. */
function decrypt(key: Buffer, [iv, tag, body]: string[], aad?: string): Buffer {
  if (!iv || !tag || body === undefined) throw new Error('not an encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}

/** A secret (a data key, a webhook secret) wrapped by a master key. */
export function wrap(master: Buffer, secret: Buffer): string {
  return [WRAPPED, keyId(master), ...encrypt(master, secret)].join('.');
}

/** The id of the master key a wrapped value names, or undefined when it is not one. */
export function wrappedBy(wrapped: string): string | undefined {
  const [version, kid] = wrapped.split('.');
  return version === WRAPPED ? kid : undefined;
}

/** A LIKE pattern for the values wrapped by the master key `kid` (rekey's "not yet under it"). */
export function wrappedByPattern(kid: string): string {
  return `${WRAPPED}.${kid}.%`;
}

export function unwrap(master: Buffer, wrapped: string): Buffer {
  const [version, , ...parts] = wrapped.split('.');
  if (version !== WRAPPED) throw new Error('not a wrapped key');
  return decrypt(master, parts);
}

/** Text (the personal fields as JSON, an event's body) sealed under a data key, bound to its owner. */
export function seal(dataKey: Buffer, owner: string, plain: string): string {
  return [SEALED, ...encrypt(dataKey, Buffer.from(plain, 'utf8'), owner)].join('.');
}

export function open(dataKey: Buffer, owner: string, sealed: string): string {
  const [version, ...parts] = sealed.split('.');
  if (version !== SEALED) throw new Error('not a sealed value');
  return decrypt(dataKey, parts, owner).toString('utf8');
}

/** The pre-rekey format of webhook secrets (`v1.<iv>.<tag>.<ct>`, no key id), still read. */
export function openLegacySecret(master: Buffer, stored: string): Buffer {
  const [version, ...parts] = stored.split('.');
  if (version !== 'v1') throw new Error('not a legacy secret');
  return decrypt(master, parts);
}

/** A keyed hash for exact-match search: HMAC-SHA-256 under the database's search key. */
export function keyedHash(searchKey: Buffer, value: string): string {
  return createHmac('sha256', searchKey).update(value, 'utf8').digest('hex');
}
