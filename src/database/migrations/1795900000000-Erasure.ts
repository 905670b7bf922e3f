import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Erasure and the export (docs/privacy.md): an outgoing event names the subscription it is about
 * (`subject_id`), sealed or not, so the export finds its deliveries and erasure its pending ones;
 * the reconcile pass finds records whose processor customer is still to be deleted.
 */
export class Erasure1795900000000 implements MigrationInterface {
  name = 'Erasure1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outgoing_events" ADD "subject_id" uuid`);
    await queryRunner.query(
      `UPDATE "outgoing_events" SET "subject_id" = "data_key_id" WHERE "data_key_id" IS NOT NULL`,
    );
    // Bodies an earlier release stored plain (the sealing step seals them later).
    await queryRunner.query(
      `UPDATE "outgoing_events" SET "subject_id" = ("payload"::jsonb -> 'data' ->> 'id')::uuid
        WHERE "data_key_id" IS NULL AND "type" LIKE 'subscription.%' AND "payload" LIKE '{%'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_outgoing_events_subject_id" ON "outgoing_events"  ("subject_id") WHERE subject_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_processor_erasure_pending" ON "subscriptions"  ("id") WHERE processor_erasure_pending`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_subscriptions_processor_erasure_pending"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_outgoing_events_subject_id"`);
    await queryRunner.query(`ALTER TABLE "outgoing_events" DROP COLUMN "subject_id"`);
  }
}
