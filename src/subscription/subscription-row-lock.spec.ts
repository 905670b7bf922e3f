import type { EntityManager, EntityMetadata } from 'typeorm';
import { lockSubscription, lockSubscriptionOfProcessor } from './subscription-row-lock';

/** A manager in a transaction whose one connection records each statement and answers `rows`. */
function managerAnswering(rows: object[]) {
  const sent: { sql: string; params: unknown[] }[] = [];
  const client = {
    query: (sql: string, params: unknown[]) => {
      sent.push({ sql, params });
      return Promise.resolve({ rows });
    },
  };
  const metadata = {
    columns: [
      { databaseName: 'id', propertyName: 'id' },
      { databaseName: 'device_id', propertyName: 'deviceId' },
    ],
  } as unknown as EntityMetadata;
  const manager = {
    connection: { getMetadata: () => metadata },
    queryRunner: { isTransactionActive: true, isReleased: false, connect: () => client },
  } as unknown as EntityManager;
  return { manager, sent };
}

describe('the subscription row lock', () => {
  it('reads every column as its property and locks the row FOR UPDATE', async () => {
    const row = { id: 'a', deviceId: null };
    const { manager, sent } = managerAnswering([row]);
    await expect(lockSubscription(manager, 'a')).resolves.toBe(row);
    expect(sent).toEqual([
      {
        sql: 'SELECT "id" AS "id", "device_id" AS "deviceId" FROM subscriptions WHERE id = $1 LIMIT 1 FOR UPDATE',
        params: ['a'],
      },
    ]);
  });

  it('skips a held row for retention, and answers null for none', async () => {
    const { manager, sent } = managerAnswering([]);
    await expect(lockSubscription(manager, 'a', { skipLocked: true })).resolves.toBeNull();
    expect(sent[0].sql).toMatch(/ WHERE id = \$1 LIMIT 1 FOR UPDATE SKIP LOCKED$/);
  });

  it("locks a processor's subscription's first record the same way", async () => {
    const { manager, sent } = managerAnswering([]);
    await expect(lockSubscriptionOfProcessor(manager, 'sub_1')).resolves.toBeNull();
    expect(sent[0].params).toEqual(['sub_1']);
    expect(sent[0].sql).toMatch(
      /WHERE processor_subscription_id = \$1\s+ORDER BY created_at ASC LIMIT 1 FOR UPDATE$/,
    );
  });
});
