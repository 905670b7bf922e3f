/**
 * The device threshold in force for an organization, in seconds (contract section 10): its own
 * `device_offline_after_seconds`, or the default DEVICE_OFFLINE_AFTER_SECONDS. A SQL expression,
 * so the statement that needs it reads it with the organization's row; `orgId` and `fallback`
 * (the default) are SQL too, a column or a parameter.
 */
export function deviceThresholdSql(orgId: string, fallback: string): string {
  return `COALESCE((SELECT o.device_offline_after_seconds FROM organizations o
    WHERE o.id = ${orgId}), ${fallback}::int)`;
}
