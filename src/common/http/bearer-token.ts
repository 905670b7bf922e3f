/**
 * The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 9110), or
 * undefined for any other header or none.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
}
