import { MigrationInterface, QueryRunner } from 'typeorm';

/** The personal columns of earlier releases (contract section 9 lists them). */
const PLAIN_COLUMNS = [
  ['name', 'name', 'character varying(120)'],
  ['email', 'email', 'character varying(160)'],
  ['lastProcessorError', 'last_processor_error', 'text'],
  ['customerEmail', 'customer_email', 'character varying(320)'],
  ['customerName', 'customer_name', 'character varying(200)'],
  ['customerPhone', 'customer_phone', 'character varying(40)'],
  ['recipientName', 'recipient_name', 'character varying(255)'],
  ['livingSituation', 'living_situation', 'character varying(100)'],
  ['primaryConcern', 'primary_concern', 'character varying(100)'],
  ['shippingAddress', 'shipping_address', 'text'],
  ['recipientZip', 'recipient_zip', 'character varying(20)'],
  ['shippingName', 'shipping_name', 'character varying(255)'],
] as const;

/**
 * Personal data sealed at rest (docs/privacy.md). The key to seal with is the instance's, not
 * the migration's: records that hold plain text (or whose events do) move to
 * `personal_data_to_seal`, which the boot
 * (and `npm run cli -- data:seal`) empties in batches, sealing each under its new data key, and
 * then drops. The plain columns go here; on a database with no personal data yet, the holding
 * table goes at once.
 */
export class PersonalDataSealed1795805367683 implements MigrationInterface {
  name = 'PersonalDataSealed1795805367683';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "data_keys" ("id" uuid NOT NULL, "wrapped" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_75e186bab00acc0d8f955b75cbb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "data_protection" ("id" smallint NOT NULL, "key_check" text NOT NULL, "search_key" text NOT NULL, "generated_key" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_data_protection_one_row" CHECK ("id" = 1), CONSTRAINT "PK_2091ff5446e754eebf6f7cba084" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "personal_data_to_seal" ("subscription_id" uuid PRIMARY KEY, "fields" jsonb NOT NULL)`,
    );
    const fields = PLAIN_COLUMNS.map(([key, column]) => `'${key}', "${column}"`).join(', ');
    const any = PLAIN_COLUMNS.map(([, column]) => `"${column}" IS NOT NULL`).join(' OR ');
    await queryRunner.query(
      `INSERT INTO "personal_data_to_seal" ("subscription_id", "fields")
       SELECT "id", jsonb_strip_nulls(jsonb_build_object(${fields})) FROM "subscriptions"
       WHERE ${any} OR "id"::text IN (SELECT "payload"::jsonb -> 'data' ->> 'id'
         FROM "outgoing_events" WHERE "type" LIKE 'subscription.%')`,
    );
    const [{ n }] = (await queryRunner.query(
      `SELECT count(*)::int AS n FROM "personal_data_to_seal"`,
    )) as { n: number }[];
    if (n === 0) await queryRunner.query(`DROP TABLE "personal_data_to_seal"`);
    for (const [, column] of PLAIN_COLUMNS) {
      await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "${column}"`);
    }
    await queryRunner.query(`ALTER TABLE "outgoing_events" ADD "data_key_id" uuid`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "personal" text`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "email_hash" character varying(64)`);
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "customer_email_hash" character varying(64)`,
    );
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "erased_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "processor_erasure_pending" boolean NOT NULL DEFAULT false`,
    );
    // Retention counts from here: for records older than this release, their last change.
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "status_changed_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(`UPDATE "subscriptions" SET "status_changed_at" = "updated_at"`);
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ALTER COLUMN "status_changed_at" SET NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_outgoing_events_data_key_id" ON "outgoing_events"  ("data_key_id") WHERE data_key_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_email_hash" ON "subscriptions"  ("email_hash") WHERE email_hash IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_customer_email_hash" ON "subscriptions"  ("customer_email_hash") WHERE customer_email_hash IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_retention" ON "subscriptions"  ("status", "status_changed_at") WHERE erased_at IS NULL`,
    );
  }

  /** The columns come back empty: sealed data is not unsealed by a schema step. */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_subscriptions_retention"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_subscriptions_customer_email_hash"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_subscriptions_email_hash"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_outgoing_events_data_key_id"`);
    for (const column of [
      'status_changed_at',
      'processor_erasure_pending',
      'erased_at',
      'customer_email_hash',
      'email_hash',
      'personal',
    ]) {
      await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "${column}"`);
    }
    await queryRunner.query(`ALTER TABLE "outgoing_events" DROP COLUMN "data_key_id"`);
    for (const [, column, type] of PLAIN_COLUMNS) {
      await queryRunner.query(`ALTER TABLE "subscriptions" ADD "${column}" ${type}`);
    }
    await queryRunner.query(`DROP TABLE IF EXISTS "personal_data_to_seal"`);
    await queryRunner.query(`DROP TABLE "data_protection"`);
    await queryRunner.query(`DROP TABLE "data_keys"`);
  }
}
