import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckoutAndWebhook1795324869797 implements MigrationInterface {
  name = 'CheckoutAndWebhook1795324869797';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subscriptions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "product" character varying(32) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "name" character varying(120), "email" character varying(160), "coupon" character varying(100), "source" character varying(64) NOT NULL, "lease_cents" integer NOT NULL, "monthly_cents" integer NOT NULL, "currency" character varying(3) NOT NULL, "checkout_session_id" character varying(255), "last_processor_error" text, "customer_email" character varying(320), "customer_name" character varying(200), "customer_phone" character varying(40), "recipient_name" character varying(255), "living_situation" character varying(100), "primary_concern" character varying(100), "shipping_address" text, "recipient_zip" character varying(20), "processor_subscription_id" character varying(255), "processor_customer_id" character varying(255), "paid_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_subscriptions_status" CHECK ("status" IN ('pending', 'paid')), CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_subscriptions_checkout_session_id" ON "subscriptions"  ("checkout_session_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "processed_webhook_events" ("id" character varying(255) NOT NULL, "type" character varying(100) NOT NULL, "outcome" character varying(40) NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_80f4f20ca1cace20dd6e3a714c1" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "processed_webhook_events"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_subscriptions_checkout_session_id"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
  }
}
