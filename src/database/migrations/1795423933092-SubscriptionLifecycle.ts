import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The subscription after checkout (docs/checkout.md): four more statuses, the shipping name,
 * canceled_at, the reconcile stamp, the status history, and the indexes the operators' list and
 * the processor-id lookups use. Every existing row is kept; each paid one gets the history entry
 * that made it paid, so later events replay from the right place.
 */
export class SubscriptionLifecycle1795423933092 implements MigrationInterface {
  name = 'SubscriptionLifecycle1795423933092';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subscription_history" ("id" BIGSERIAL NOT NULL, "subscription_id" uuid NOT NULL, "event_id" character varying(255) NOT NULL, "type" character varying(100) NOT NULL, "effect" character varying(32) NOT NULL, "from_status" character varying(16) NOT NULL, "to_status" character varying(16) NOT NULL, "event_created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL, "source" character varying(16) NOT NULL, CONSTRAINT "CHK_subscription_history_source" CHECK ("source" IN ('webhook', 'reconcile')), CONSTRAINT "PK_91a0ee8b462f23bfb2ad7924754" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_subscription_history_event" ON "subscription_history"  ("subscription_id", "event_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "shipping_name" character varying(255)`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "canceled_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "reconciled_at" TIMESTAMP WITH TIME ZONE`,
    );
    // TypeORM's generator does not see a changed CHECK expression; written by hand.
    await queryRunner.query(
      `ALTER TABLE "subscriptions" DROP CONSTRAINT "CHK_subscriptions_status"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD CONSTRAINT "CHK_subscriptions_status" CHECK ("status" IN ('pending', 'paid', 'past_due', 'canceled', 'expired', 'payment_failed'))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_processor_subscription_id" ON "subscriptions"  ("processor_subscription_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_status_created_at_id" ON "subscriptions"  ("status", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_created_at_id" ON "subscriptions"  ("created_at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "subscription_history" ADD CONSTRAINT "FK_153e2b7a1a2d9cac822d93fe15f" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The event that paid a record was not kept before this version; its outcome was.
    await queryRunner.query(
      `INSERT INTO "subscription_history" ("subscription_id", "event_id", "type", "effect", "from_status", "to_status", "event_created_at", "received_at", "source")
       SELECT "id", 'before-history', 'checkout.session.completed', 'checkout_paid', 'pending', 'paid', COALESCE("paid_at", "updated_at"), COALESCE("paid_at", "updated_at"), 'webhook'
       FROM "subscriptions" WHERE "status" = 'paid' ORDER BY "created_at"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "subscription_history" DROP CONSTRAINT "FK_153e2b7a1a2d9cac822d93fe15f"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_subscriptions_created_at_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_subscriptions_status_created_at_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_subscriptions_processor_subscription_id"`);
    // The old schema knows only pending and paid: a record that was ever paid stays paid.
    await queryRunner.query(
      `ALTER TABLE "subscriptions" DROP CONSTRAINT "CHK_subscriptions_status"`,
    );
    await queryRunner.query(
      `UPDATE "subscriptions" SET "status" = CASE WHEN "paid_at" IS NULL THEN 'pending' ELSE 'paid' END WHERE "status" NOT IN ('pending', 'paid')`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD CONSTRAINT "CHK_subscriptions_status" CHECK ("status" IN ('pending', 'paid'))`,
    );
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "reconciled_at"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "canceled_at"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "shipping_name"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_subscription_history_event"`);
    await queryRunner.query(`DROP TABLE "subscription_history"`);
  }
}
