import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail (src/audit, docs/audit.md). Append-only in the database itself: a trigger
 * refuses UPDATE, DELETE and TRUNCATE, but a DELETE in a transaction that said
 * `SET LOCAL device_care.audit_prune = 'on'` (the retention's pruning, audit-retention.ts).
 * PL/pgSQL, so it runs on the embedded database as on PostgreSQL.
 */
export class AuditEvents1795800000000 implements MigrationInterface {
  name = 'AuditEvents1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_events" ("id" BIGSERIAL NOT NULL, "seq" bigint NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "action" character varying(64) NOT NULL, "actor_type" character varying(16) NOT NULL, "actor_id" character varying(128), "actor_org_id" uuid, "subject_type" character varying(32), "subject_id" character varying(128), "subject_org_id" uuid, "ip" character varying(64), "request_id" character varying(128), "details" jsonb NOT NULL, "prev_hash" character(64) NOT NULL, "hash" character(64) NOT NULL, CONSTRAINT "PK_910f64d901a5c3e9878f0d4a407" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_audit_events_seq" ON "audit_events"  ("seq") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_subject_id" ON "audit_events"  ("subject_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_actor_id" ON "audit_events"  ("actor_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_action" ON "audit_events"  ("action", "occurred_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_subject_org" ON "audit_events"  ("subject_org_id", "occurred_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_actor_org" ON "audit_events"  ("actor_org_id", "occurred_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_occurred_at_id" ON "audit_events"  ("occurred_at", "id") `,
    );
    await queryRunner.query(`CREATE FUNCTION audit_events_append_only() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND coalesce(current_setting('device_care.audit_prune', true), '') = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`CREATE TRIGGER audit_events_append_only
      BEFORE UPDATE OR DELETE ON "audit_events"
      FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()`);
    await queryRunner.query(`CREATE TRIGGER audit_events_no_truncate
      BEFORE TRUNCATE ON "audit_events"
      FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_events"`);
    await queryRunner.query(`DROP FUNCTION audit_events_append_only()`);
  }
}
