import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutgoingWebhooks1795617912516 implements MigrationInterface {
  name = 'OutgoingWebhooks1795617912516';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "description" character varying(500), "event_types" text array NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "secret_encrypted" text NOT NULL, "previous_secret_encrypted" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_endpoints_org" ON "webhook_endpoints"  ("org_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "outgoing_events" ("id" uuid NOT NULL, "type" character varying(64) NOT NULL, "org_id" uuid, "payload" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "settled_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_483790d8e8231e1428c1f245232" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_outgoing_events_settled_at" ON "outgoing_events"  ("settled_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("event_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "last_status_code" integer, "last_error" character varying(1024), "next_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, "manual" boolean NOT NULL DEFAULT false, "claimed_until" TIMESTAMP WITH TIME ZONE, "claim_token" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_webhook_deliveries_status" CHECK ("status" IN ('pending', 'delivered', 'failed')), CONSTRAINT "PK_ce8ee1053d7a0687e786719605d" PRIMARY KEY ("event_id", "endpoint_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint" ON "webhook_deliveries"  ("endpoint_id", "created_at", "event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries"  ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_c16c2418978f22136bd60cff196" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "outgoing_events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_c16c2418978f22136bd60cff196"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_deliveries_due"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_deliveries_endpoint"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_outgoing_events_settled_at"`);
    await queryRunner.query(`DROP TABLE "outgoing_events"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_endpoints_org"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
