import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the housekeeping's batches (src/database/housekeeping.service.ts). The sessions
 * index is on the expression of SESSION_RETENTION (src/auth/session/session-retention.ts), written by
 * hand: TypeORM cannot generate an expression index (the entity marks it `synchronize: false`).
 */
export class Housekeeping1795456975855 implements MigrationInterface {
  name = 'Housekeeping1795456975855';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_processed_webhook_events_received_at" ON "processed_webhook_events"  ("received_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sessions_ended_at" ON "sessions" ((LEAST("expires_at", "idle_expires_at", "revoked_at")))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_sessions_ended_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_processed_webhook_events_received_at"`);
  }
}
