import { decodeKeysetCursor, encodeKeysetCursor } from '../common/pagination/keyset-cursor';
import { isCanonicalDeviceId } from './device.rules';

/** The list's keyset cursor: the last device_id of a page. */
export function encodeDeviceCursor(lastDeviceId: string): string {
  return encodeKeysetCursor({ after: lastDeviceId });
}

/** The device_id to continue after, or undefined when the cursor is not one of ours. */
export function decodeDeviceCursor(cursor: string): string | undefined {
  return decodeKeysetCursor(cursor, ({ after }) =>
    isCanonicalDeviceId(after) ? after : undefined,
  );
}
