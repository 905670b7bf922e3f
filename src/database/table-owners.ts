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
  // Plain text of an earlier release, until sealed (subscription-sealing.service.ts); then dropped.
  personal_data_to_seal: 'subscription',
  data_keys: 'personal-data',
  data_protection: 'personal-data',
  processed_webhook_events: 'processor-webhook',
  webhook_endpoints: 'outgoing-webhook',
  outgoing_events: 'outgoing-webhook',
  webhook_deliveries: 'outgoing-webhook',
  audit_events: 'audit',
  audit_chain_starts: 'audit',
} as const;

export type OwnedTable = keyof typeof TABLE_OWNERS;

/**
 * Tables of an upgrade step only, with no entity: made by a migration, emptied and dropped by
 * their owner's code (docs/privacy.md, "Upgrading").
 */
export const TABLES_WITHOUT_ENTITY: readonly OwnedTable[] = ['personal_data_to_seal'];

/** The tables an entity maps. */
export const ENTITY_TABLES = (Object.keys(TABLE_OWNERS) as OwnedTable[]).filter(
  (t) => !TABLES_WITHOUT_ENTITY.includes(t),
);

/**
 * The documented second users (ARCHITECTURE.md): the account row is created and changed by
 * users/ (account administration) and stays in auth/, which sessions and sign-in need. device/
 * reads one column of organizations, the device threshold, inside its contact statement
 * (device-presence.service.ts): a lookup through OrgService would cost every heartbeat a round trip,
 * and a cache would stamp a stale threshold on other instances after `PATCH /api/v1/org`.
 */
export const TABLE_ALSO_USED_BY: Partial<Record<OwnedTable, readonly string[]>> = {
  users: ['users'],
  organizations: ['device'],
  // The devices no live record holds: one anti-join with subscriptions (shippable-devices.service.ts).
  devices: ['subscription'],
};

/** May `feature` (a folder under src/) use `table` directly? Unknown tables belong to no one. */
export function mayUseTable(feature: string, table: string): boolean {
  if (!Object.hasOwn(TABLE_OWNERS, table)) return false;
  const owned = table as OwnedTable;
  return TABLE_OWNERS[owned] === feature || (TABLE_ALSO_USED_BY[owned] ?? []).includes(feature);
}
