import { MigrationInterface, QueryRunner } from 'typeorm';
import { loadAppConfig } from '../../config/load-env';

/**
 * Accounts linked under another spelling of the issuer (Google signs with both
 * `https://accounts.google.com` and `accounts.google.com`) move to the canonical spelling, the
 * first of OIDC_ISSUER, which is what sign-in stores from now on. A subject already linked under
 * the canonical spelling keeps that account; the other row is left as it is (sign-in finds the
 * canonical one first). Sign-in also moves any row it finds under another spelling later, so a
 * spelling added to OIDC_ISSUER after this migration needs no new one.
 */
export class CanonicalIdpIssuer1795410000000 implements MigrationInterface {
  name = 'CanonicalIdpIssuer1795410000000';

  /** `issuers` for tests; TypeORM constructs migrations without arguments (the process's config). */
  constructor(private readonly issuers?: string[]) {}

  public async up(queryRunner: QueryRunner): Promise<void> {
    const [canonical, ...others] = this.issuers ?? loadAppConfig().oidc.issuers;
    if (!canonical || others.length === 0) return;
    await queryRunner.query(
      `UPDATE "users" SET "idp_issuer" = $1, "updated_at" = now() WHERE "id" IN (
         SELECT DISTINCT ON (u."idp_subject") u."id" FROM "users" u
         WHERE u."idp_issuer" = ANY($2::varchar[]) AND NOT EXISTS (
           SELECT 1 FROM "users" c WHERE c."idp_issuer" = $1 AND c."idp_subject" = u."idp_subject")
         ORDER BY u."idp_subject", u."created_at")`,
      [canonical, others],
    );
  }

  public async down(): Promise<void> {
    // The spelling each account had is not kept; every spelling still signs in. Nothing to undo.
  }
}
