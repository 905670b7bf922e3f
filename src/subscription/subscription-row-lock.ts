import type { EntityManager, EntityMetadata } from 'typeorm';
import { columnsAsProperties } from '../database/columns-as-properties';
import { statementRows } from '../database/statement-rows';
import { Subscription } from './subscription.entity';

/** Constant statements, every column as its property (decision 0012), made once per metadata. */
interface LockStatements {
  byId: string;
  byIdSkipLocked: string;
  byProcessorId: string;
}

const made = new WeakMap<EntityMetadata, LockStatements>();

function statements(manager: EntityManager): LockStatements {
  const metadata = manager.connection.getMetadata(Subscription);
  let found = made.get(metadata);
  if (!found) {
    const select = `SELECT ${columnsAsProperties(metadata)} FROM subscriptions`;
    found = {
      byId: `${select} WHERE id = $1 LIMIT 1 FOR UPDATE`,
      byIdSkipLocked: `${select} WHERE id = $1 LIMIT 1 FOR UPDATE SKIP LOCKED`,
      // A processor's subscription names one record; were there two, the first one made.
      byProcessorId: `${select} WHERE processor_subscription_id = $1
        ORDER BY created_at ASC LIMIT 1 FOR UPDATE`,
    };
    made.set(metadata, found);
  }
  return found;
}

/**
 * The one lock of a subscription record: its row `FOR UPDATE` until the caller's transaction
 * ends, taken before any change of the record (the processor's events, shipping, activation, a
 * processor error, erasure), so changes of one record take turns and each reads the last one's
 * write; the export takes it too, so it never interleaves with an erasure. The record `id` (a
 * uuid), locked; null when there is none, or with `skipLocked` (retention) when another
 * transaction holds it.
 */
export async function lockSubscription(
  manager: EntityManager,
  id: string,
  { skipLocked = false }: { skipLocked?: boolean } = {},
): Promise<Subscription | null> {
  const { byId, byIdSkipLocked } = statements(manager);
  const sql = skipLocked ? byIdSkipLocked : byId;
  const [row] = await statementRows<Subscription>(manager, sql, [id]);
  return row ?? null;
}

/** The record of the processor's subscription `processorSubscriptionId`, locked. */
export async function lockSubscriptionOfProcessor(
  manager: EntityManager,
  processorSubscriptionId: string,
): Promise<Subscription | null> {
  const sql = statements(manager).byProcessorId;
  const [row] = await statementRows<Subscription>(manager, sql, [processorSubscriptionId]);
  return row ?? null;
}
