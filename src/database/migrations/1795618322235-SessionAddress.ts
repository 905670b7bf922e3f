import { MigrationInterface, QueryRunner } from 'typeorm';

export class SessionAddress1795618322235 implements MigrationInterface {
  name = 'SessionAddress1795618322235';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD "ip" character varying(64)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "ip"`);
  }
}
