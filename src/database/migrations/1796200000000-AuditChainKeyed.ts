import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit chain holds at both ends and is keyed (src/audit, docs/audit.md): the audit key,
 * wrapped by the master key beside the search key (made at the next boot), and the chain's
 * recorded starts, append-only. A DELETE on `audit_events` now also needs a recorded pruning start
 * that covers the row: the pruning records one before it deletes, and a start written by anyone
 * else lacks a valid MAC, which `audit:verify` refuses. PL/pgSQL, so it runs on the embedded
 * database as on PostgreSQL.
 */
export class AuditChainKeyed1796200000000 implements MigrationInterface {
  name = 'AuditChainKeyed1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_chain_starts" ("kind" character varying(16) NOT NULL, "seq" bigint NOT NULL, "hash" character(64) NOT NULL, "mac" character(64) NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_400d865f6d24747366b0e2a94a4" PRIMARY KEY ("kind", "seq"))`,
    );
    await queryRunner.query(`ALTER TABLE "data_protection" ADD "audit_key" text`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE'
          AND coalesce(current_setting('device_care.audit_prune', true), '') = 'on'
          AND EXISTS (SELECT 1 FROM audit_chain_starts WHERE kind = 'pruned' AND seq >= OLD.seq) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`CREATE FUNCTION audit_chain_starts_append_only() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_chain_starts is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`CREATE TRIGGER audit_chain_starts_append_only
      BEFORE UPDATE OR DELETE ON "audit_chain_starts"
      FOR EACH ROW EXECUTE FUNCTION audit_chain_starts_append_only()`);
    await queryRunner.query(`CREATE TRIGGER audit_chain_starts_no_truncate
      BEFORE TRUNCATE ON "audit_chain_starts"
      FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_starts_append_only()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND coalesce(current_setting('device_care.audit_prune', true), '') = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`ALTER TABLE "data_protection" DROP COLUMN "audit_key"`);
    await queryRunner.query(`DROP TABLE "audit_chain_starts"`);
    await queryRunner.query(`DROP FUNCTION audit_chain_starts_append_only()`);
  }
}
