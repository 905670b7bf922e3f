import { MigrationInterface, QueryRunner } from 'typeorm';

/** The delivery claim's per-endpoint cap: each endpoint's oldest due, and its live leases. */
export class DeliveryFairness1795700000000 implements MigrationInterface {
  name = 'DeliveryFairness1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint_due" ON "webhook_deliveries"  ("endpoint_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_leased" ON "webhook_deliveries"  ("endpoint_id") WHERE "claimed_until" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_deliveries_leased"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_deliveries_endpoint_due"`);
  }
}
