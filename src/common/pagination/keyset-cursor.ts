/**
 * A keyset list's cursor: where a page ended, as versioned JSON in base64url, so clients treat it
 * as opaque (the order may gain columns later without breaking their code).
 */
export function encodeKeysetCursor(position: Record<string, string>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...position }), 'utf8').toString('base64url');
}

/** The position's fields, or undefined when the cursor is not one of ours; `read` checks them. */
export function decodeKeysetCursor<T>(
  cursor: string,
  read: (fields: Record<string, unknown>) => T | undefined,
): T | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const fields = parsed as Record<string, unknown>;
    return fields.v === 1 ? read(fields) : undefined;
  } catch {
    return undefined;
  }
}
