/**
 * The shape rules of a device's registered identity: the DTOs check them (the API and the CLI
 * alike), the list's cursor and the token guard reread a device_id with them.
 */

/** Canonical device_id: lowercase letters, digits and `.`, `_`, `:`, `-`, starting with a letter or digit. */
export const DEVICE_ID_PATTERN = /^[a-z0-9][a-z0-9._:-]{0,127}$/;
export const DEVICE_ID_MAX = 128;
export const DEVICE_TEXT_MAX = 100;
export const FIRMWARE_VERSION_MAX = 64;
/**
 * Free text: no control characters (PostgreSQL refuses NUL, and logs should not carry the rest) and
 * no surrounding spaces, since the device must later send exactly the same value.
 */
export const TEXT_PATTERN = /^[^\p{Cc}\s](?:[^\p{Cc}]*[^\p{Cc}\s])?$/u;

export function isCanonicalDeviceId(value: unknown): value is string {
  return typeof value === 'string' && DEVICE_ID_PATTERN.test(value);
}
