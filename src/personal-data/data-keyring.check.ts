/**
 * The key check's plain text (docs/privacy.md, "Keys"), which also says whether the audit chain is
 * keyed (docs/audit.md, "The upgrade of a chain with plain links"). It is sealed under the master key, so whoever writes the
 * database without that key can neither forge it nor turn a keyed chain back into an "old" one
 * that the boot would key again from a head of their choosing.
 */
export const KEY_CHECK = {
  /** The chain is not keyed yet (a new database, or an earlier release's): the boot keys it once. */
  plainChain: 'device-care data protection check v1',
  /** The audit chain is keyed: its audit key and its keyed start must be there. */
  keyedChain: 'device-care data protection check v2: audit chain keyed',
} as const;

export type KeyCheckValue = (typeof KEY_CHECK)[keyof typeof KEY_CHECK];

export function isKeyCheck(text: string): text is KeyCheckValue {
  return text === KEY_CHECK.plainChain || text === KEY_CHECK.keyedChain;
}

export const MISSING_KEY_ROW =
  'data_protection has no row, yet data_keys holds sealed data: the key row was removed from the ' +
  'database. Restore that row from a backup (docs/audit.md, "The upgrade of a chain with plain links")';

export const MISSING_AUDIT_KEY =
  'data_protection holds no audit key, yet its key check says the audit chain is keyed: the key ' +
  'was removed from the database. Restore that row from a backup (docs/audit.md, "The upgrade of a chain with plain links")';
