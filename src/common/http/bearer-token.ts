import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * A check of `Authorization: Bearer <token>` against one expected token. The scheme is matched
 * case-insensitively (RFC 9110 11.1); the tokens are compared as SHA-256 digests with
 * timingSafeEqual, so neither their content nor their length shows in the time taken.
 */
export class BearerToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  matches(authorization: string | undefined): boolean {
    const given = /^bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    return given !== undefined && timingSafeEqual(digest(given), this.expected);
  }
}
