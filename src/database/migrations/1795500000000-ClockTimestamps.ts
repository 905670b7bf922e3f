import { MigrationInterface, QueryRunner } from 'typeorm';

/** Rows are stamped from the service's Clock (ClockTimestamps); the database no longer fills them in. */
const STAMPED: [table: string, column: string][] = [
  ['organizations', 'created_at'],
  ['users', 'created_at'],
  ['users', 'updated_at'],
  ['devices', 'created_at'],
  ['devices', 'updated_at'],
  ['subscriptions', 'created_at'],
  ['subscriptions', 'updated_at'],
  ['processed_webhook_events', 'received_at'],
];

export class ClockTimestamps1795500000000 implements MigrationInterface {
  name = 'ClockTimestamps1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of STAMPED) {
      await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" DROP DEFAULT`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of STAMPED) {
      await queryRunner.query(
        `ALTER TABLE "${table}" ALTER COLUMN "${column}" SET DEFAULT CURRENT_TIMESTAMP`,
      );
    }
  }
}
