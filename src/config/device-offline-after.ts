/**
 * The range of a device threshold in seconds, DEVICE_OFFLINE_AFTER_SECONDS's and an
 * organization's own alike: from 2 seconds to 30 days. The database's CHECK keeps the lower bound.
 */
export const DEVICE_OFFLINE_AFTER_MIN = 2;
export const DEVICE_OFFLINE_AFTER_MAX = 2_592_000;
