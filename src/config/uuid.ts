import { isUUID } from 'class-validator';

/**
 * The one reading of a UUID from outside (a path, a cursor, an event, a setting): its stored form,
 * lower case as PostgreSQL writes it, or undefined for anything else. In config/, the bottom layer,
 * so a setting (FULFILMENT_ORG_ID) is read the same way as a client's id.
 */
export function parseUuid(value: unknown): string | undefined {
  return typeof value === 'string' && isUUID(value) ? value.toLowerCase() : undefined;
}
