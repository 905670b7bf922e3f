import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A record's `expired_at` (docs/checkout.md): when its checkout expired, from the history's event
 * that expired it (else when it took the status). No status date reads earlier than the record's
 * creation: the processor's whole second could.
 */
export class ExpiredAt1796150000001 implements MigrationInterface {
  name = 'ExpiredAt1796150000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD "expired_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `UPDATE "subscriptions" s SET "expired_at" = GREATEST(s."created_at", COALESCE(
          (SELECT max(h."event_created_at") FROM "subscription_history" h
            WHERE h."subscription_id" = s."id" AND h."to_status" = 'expired'
              AND h."from_status" <> 'expired'),
          s."status_changed_at"))
        WHERE s."status" = 'expired'`,
    );
    await queryRunner.query(
      `UPDATE "subscriptions" SET "paid_at" = "created_at" WHERE "paid_at" < "created_at"`,
    );
    await queryRunner.query(
      `UPDATE "subscriptions" SET "canceled_at" = "created_at" WHERE "canceled_at" < "created_at"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "expired_at"`);
  }
}
