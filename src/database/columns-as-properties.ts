import type { EntityMetadata } from 'typeorm';

/**
 * Every column of an entity, aliased to its property (`"org_id" AS "orgId"`), for the constant
 * statements of hot paths: rows read this way have the entity's shape. A raw INSERT or UPDATE
 * bypasses the ClockTimestamps subscriber, so it must stamp `created_at`/`updated_at` itself
 * from the Clock.
 */
export function columnsAsProperties(metadata: EntityMetadata): string {
  return metadata.columns.map((c) => `"${c.databaseName}" AS "${c.propertyName}"`).join(', ');
}
