/**
 * Which feature (folder under src/) owns which table (ARCHITECTURE.md, "Features own their data").
 * Only the owner's modules list the table's entity in `TypeOrmModule.forFeature` and only files in
 * the owner's folder name the table in SQL; every other feature goes through the owner's service.
 * Checked by src/app.module.spec.ts (forFeature, entities) and src/architecture.spec.ts (SQL,
 * migrations). A new table gets its row here in the change that creates it.
 */
export const TABLE_OWNERS = {
  organizations: 'org',
  users: 'auth',
  sessions: 'auth',
  devices: 'device',
  device_assertion_jtis: 'device',
  subscriptions: 'subscription',
  subscription_history: 'subscription',
  processed_webhook_events: 'processor-webhook',
  webhook_endpoints: 'outgoing-webhook',
  outgoing_events: 'outgoing-webhook',
  webhook_deliveries: 'outgoing-webhook',
  audit_events: 'audit',
} as const;

export type OwnedTable = keyof typeof TABLE_OWNERS;

/**
 * The documented second writers (ARCHITECTURE.md): the account row is created and changed by
 * users/ (account administration) and stays in auth/, which sessions and sign-in need.
 */
export const TABLE_ALSO_USED_BY: Partial<Record<OwnedTable, readonly string[]>> = {
  users: ['users'],
};

/** May `feature` (a folder under src/) use `table` directly? Unknown tables belong to no one. */
export function mayUseTable(feature: string, table: string): boolean {
  if (!Object.hasOwn(TABLE_OWNERS, table)) return false;
  const owned = table as OwnedTable;
  return TABLE_OWNERS[owned] === feature || (TABLE_ALSO_USED_BY[owned] ?? []).includes(feature);
}
