import { cursorReader } from '../../common/pagination/keyset-cursor';
import type { KeysetOrder } from '../../common/pagination/keyset-page';
import { isCanonicalDeviceId } from '../device.rules';

/** The list's keyset order: device_id within the org; a cursor holds the page's last one. */
export const DEVICE_ORDER: KeysetOrder<{ deviceId: string }, { after: string }> = {
  positionOf: (row) => ({ after: row.deviceId }),
  read: cursorReader({ after: isCanonicalDeviceId }),
};
