import { MigrationInterface, QueryRunner } from 'typeorm';

export class Devices1795324817218 implements MigrationInterface {
  name = 'Devices1795324817218';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "devices" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" uuid NOT NULL, "device_id" character varying(128) COLLATE "C" NOT NULL, "model" character varying(100) NOT NULL, "provider" character varying(100) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'active', "last_seen_at" TIMESTAMP WITH TIME ZONE, "firmware_version" character varying(64), "battery_pct" smallint, "deactivated_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_devices_battery_pct" CHECK ("battery_pct" BETWEEN 0 AND 100), CONSTRAINT "CHK_devices_status" CHECK ("status" IN ('active', 'deactivated')), CONSTRAINT "PK_b1514758245c12daf43486dd1f0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_devices_device_id" ON "devices"  ("device_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_devices_org_device_id" ON "devices"  ("org_id", "device_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "devices" ADD CONSTRAINT "FK_dc94889a211143f9035968f46e9" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "devices" DROP CONSTRAINT "FK_dc94889a211143f9035968f46e9"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_devices_org_device_id"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_devices_device_id"`);
    await queryRunner.query(`DROP TABLE "devices"`);
  }
}
