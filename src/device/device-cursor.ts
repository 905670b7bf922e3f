import { isCanonicalDeviceId } from './device.rules';

/**
 * The list's keyset cursor: the last device_id of a page, wrapped so clients treat it as opaque
 * (the order may gain columns later without breaking their code).
 */
export function encodeDeviceCursor(lastDeviceId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after: lastDeviceId }), 'utf8').toString('base64url');
}

/** The device_id to continue after, or undefined when the cursor is not one of ours. */
export function decodeDeviceCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { v, after } = parsed as { v?: unknown; after?: unknown };
    return v === 1 && isCanonicalDeviceId(after) ? after : undefined;
  } catch {
    return undefined;
  }
}
