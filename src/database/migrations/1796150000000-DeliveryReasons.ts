import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery's `last_error` holds only the service's own short reason (docs/outgoing-webhooks.md):
 * texts stored before, which could hold the first KiB of a receiver's answer (an echo of the
 * event's personal data), become the reason they stand for. `erased` stays; an answer's text
 * becomes `http_<status>`; anything not recognised, `connection_failed` or `failed`.
 */
export class DeliveryReasons1796150000000 implements MigrationInterface {
  name = 'DeliveryReasons1796150000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "webhook_deliveries" SET "last_error" = CASE
        WHEN "last_error" = 'erased' THEN 'erased'
        WHEN "last_status_code" BETWEEN 300 AND 399 THEN 'redirect_not_followed'
        WHEN "last_status_code" IS NOT NULL THEN 'http_' || "last_status_code"
        WHEN "last_error" = 'endpoint disabled' THEN 'endpoint_disabled'
        WHEN "last_error" LIKE 'timeout%' THEN 'timeout'
        WHEN "last_error" = 'connection refused' THEN 'connection_refused'
        WHEN "last_error" LIKE 'address refused: The host % could not be resolved.'
          THEN 'name_not_resolved'
        WHEN "last_error" LIKE 'address refused%' THEN 'refused_address'
        WHEN "last_error" LIKE 'aborted%' THEN 'aborted'
        WHEN "last_error" LIKE 'not sent%' THEN 'not_sent'
        WHEN "last_error" IN ('connection failed: ECONNRESET', 'connection failed: EPIPE')
          THEN 'connection_reset'
        WHEN "last_error" ~ '^connection failed: (ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|EPROTO)'
          THEN 'tls'
        WHEN "last_error" LIKE 'connection failed%' THEN 'connection_failed'
        ELSE 'failed' END
      WHERE "last_error" IS NOT NULL`,
    );
  }

  public async down(): Promise<void> {
    // The texts replaced are not kept anywhere: nothing to put back.
  }
}
