import { MigrationInterface, QueryRunner } from 'typeorm';

/** Contract section 10: the device shipped for a record, device liveness, the org threshold. */
export class AfterPayment1796000000000 implements MigrationInterface {
  name = 'AfterPayment1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organizations" ADD "device_offline_after_seconds" integer`,
    );
    await queryRunner.query(`ALTER TABLE "devices" ADD "offline_after" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "devices" ADD "offline_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "devices" ADD "battery_low" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "device_id" character varying(128) COLLATE "C"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "device_assigned_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "device_activated_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "device_carrier" character varying(100)`,
    );
    // Devices seen before the upgrade count from their last contact, at the default threshold:
    // the first liveness pass reports those already past it (docs/devices.md, "Liveness").
    await queryRunner.query(
      `UPDATE "devices" SET "offline_after" = "last_seen_at" + interval '900 seconds' WHERE "last_seen_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_devices_liveness_due" ON "devices"  ("offline_after") WHERE offline_since IS NULL AND status = 'active' AND offline_after IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_subscriptions_live_device" ON "subscriptions"  ("device_id") WHERE device_id IS NOT NULL AND status IN ('paid', 'past_due')`,
    );
    await queryRunner.query(
      `ALTER TABLE "organizations" ADD CONSTRAINT "CHK_organizations_device_offline_after" CHECK ("device_offline_after_seconds" >= 2)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organizations" DROP CONSTRAINT "CHK_organizations_device_offline_after"`,
    );
    await queryRunner.query(`DROP INDEX "public"."UQ_subscriptions_live_device"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_devices_liveness_due"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "device_carrier"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "device_activated_at"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "device_assigned_at"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "device_id"`);
    await queryRunner.query(`ALTER TABLE "devices" DROP COLUMN "battery_low"`);
    await queryRunner.query(`ALTER TABLE "devices" DROP COLUMN "offline_since"`);
    await queryRunner.query(`ALTER TABLE "devices" DROP COLUMN "offline_after"`);
    await queryRunner.query(
      `ALTER TABLE "organizations" DROP COLUMN "device_offline_after_seconds"`,
    );
  }
}
