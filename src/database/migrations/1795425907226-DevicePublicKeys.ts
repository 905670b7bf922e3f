import { MigrationInterface, QueryRunner } from 'typeorm';

export class DevicePublicKeys1795425907226 implements MigrationInterface {
  name = 'DevicePublicKeys1795425907226';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "device_assertion_jtis" ("device_pk" uuid NOT NULL, "jti" character varying(255) COLLATE "C" NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7a889c8f74c032b7d0e96a4c378" PRIMARY KEY ("device_pk", "jti"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_device_assertion_jtis_expires_at" ON "device_assertion_jtis"  ("expires_at") `,
    );
    await queryRunner.query(`ALTER TABLE "devices" ADD "public_key" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "devices" ADD "public_key_thumbprint" character varying(43)`,
    );
    await queryRunner.query(
      `ALTER TABLE "devices" ADD CONSTRAINT "CHK_devices_public_key" CHECK (("public_key" IS NULL) = ("public_key_thumbprint" IS NULL))`,
    );
    await queryRunner.query(
      `ALTER TABLE "device_assertion_jtis" ADD CONSTRAINT "FK_8ed5a72fa985956cf4080904181" FOREIGN KEY ("device_pk") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "device_assertion_jtis" DROP CONSTRAINT "FK_8ed5a72fa985956cf4080904181"`,
    );
    await queryRunner.query(`ALTER TABLE "devices" DROP CONSTRAINT "CHK_devices_public_key"`);
    await queryRunner.query(`ALTER TABLE "devices" DROP COLUMN "public_key_thumbprint"`);
    await queryRunner.query(`ALTER TABLE "devices" DROP COLUMN "public_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_device_assertion_jtis_expires_at"`);
    await queryRunner.query(`DROP TABLE "device_assertion_jtis"`);
  }
}
