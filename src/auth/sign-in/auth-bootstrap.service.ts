import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { OrgService } from '../../org/org.service';
import { User } from '../user.entity';
import { ADVISORY_LOCK } from '../../database/advisory-locks';
import { normalizeEmail } from '../../common/validation/email';

/**
 * BOOTSTRAP_ORG_NAME + BOOTSTRAP_ADMIN_EMAIL: on a database with no user yet, create that
 * organization and its first admin, who then signs in with the provider (linked by email).
 */
@Injectable()
export class AuthBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly orgs: OrgService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { orgName, adminEmail } = this.config.bootstrap;
    if (!orgName && !adminEmail) return;
    if (!orgName || !adminEmail) {
      this.logger.warn('Set both BOOTSTRAP_ORG_NAME and BOOTSTRAP_ADMIN_EMAIL, or neither');
      return;
    }
    const created = await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK.bootstrap]);
      if ((await manager.count(User)) > 0) return false;
      const org = await this.orgs.create(orgName, manager);
      const email = normalizeEmail(adminEmail);
      await manager.save(manager.create(User, { orgId: org.id, email, role: 'admin', name: null }));
      return true;
    });
    if (created) this.logger.log(`Created organization "${orgName}" and its first admin`);
  }
}
