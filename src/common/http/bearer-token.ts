import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 9110 11.1),
 * or undefined for any other header or none.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * A check of a bearer header against one expected token. The tokens are compared as SHA-256
 * digests with timingSafeEqual, so neither their content nor their length shows in the time taken.
 */
export class BearerToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  matches(authorization: string | undefined): boolean {
    const given = bearerToken(authorization);
    return given !== undefined && timingSafeEqual(digest(given), this.expected);
  }
}
