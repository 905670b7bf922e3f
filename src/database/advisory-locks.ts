/**
 * Every PostgreSQL advisory lock key the service takes, in one place so two jobs never pick the
 * same number. A key is a promise to running instances: never reuse or renumber one.
 */
export const ADVISORY_LOCK = {
  /** Migrations at boot and `db:migrate`: one instance applies them, the others wait. */
  migrations: 4_242_001,
  /** The first organization and admin (BOOTSTRAP_*): created once, whichever instance boots first. */
  bootstrap: 4_242_003,
  /** The periodic reconcile pass: one instance at a time, the others skip their turn. */
  reconcile: 4_242_015,
  /** Retention deletes: one instance at a time, per batch. */
  housekeeping: 4_242_016,
  /** An audit event's append: one writer at a time extends the one chain (src/audit). */
  auditChain: 4_242_017,
  /** The device liveness pass (contract section 10): one instance at a time, the others skip. */
  deviceLiveness: 4_242_018,
  /**
   * A device handed to a live subscription (shipping, a record coming back to live): the first of
   * the two-key form `pg_advisory_xact_lock(key, hashtext(device_id))`, so one device's hand-overs
   * take turns and a check of who holds it stays true until the change commits.
   */
  subscriptionDevice: 4_242_019,
} as const;
