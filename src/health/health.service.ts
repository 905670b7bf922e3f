import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { OidcDiscovery, SignInHealth } from '../auth/sign-in/oidc-discovery.service';
import { BearerToken } from '../common/http/bearer-token';
import { driverPool } from '../database/statement-rows';
import { Drain } from '../common/lifecycle/drain';
import { AppConfig } from '../config/app-config';

export interface HealthReport {
  status: 'ok' | 'error';
  checks: { database: 'up' | 'down' };
  version: string;
  /**
   * What an operator should know; never changes `status` (a balancer reads only that). Only for
   * a caller with METRICS_TOKEN: it names the identity provider and its misconfigurations.
   */
  details?: { sign_in: SignInHealth; shutting_down?: true };
}

/** What the ping meets before the driver has a pool: a failed query. */
const NO_POOL: Pick<Pool, 'query'> = {
  query: () => Promise.reject(new Error('the database is not connected')),
};

/** A database ping short enough that a dead database shows within a few seconds. */
const PING_TIMEOUT_MS = 1500;

/**
 * Readiness is one timed database ping, answered in the report's own shape (docs/operations.md).
 * No @nestjs/terminus (docs/decisions/0006-no-terminus.md): its TypeORM indicator cost more than
 * the ping, and its result has another shape than the report, so it only wrapped this ping.
 */
@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly oidc: OidcDiscovery,
    private readonly drain: Drain,
  ) {
    this.operatorToken = config.metricsToken ? new BearerToken(config.metricsToken) : undefined;
  }

  private readonly operatorToken?: BearerToken;

  /** `authorization`: the caller's header; with METRICS_TOKEN in it the report has `details`. */
  async check(authorization?: string): Promise<HealthReport> {
    // Draining on SIGTERM: not ready, whatever the database says, so the balancer stops sending.
    const shuttingDown = this.drain.draining;
    const up = !shuttingDown && (await this.ping());
    const report: HealthReport = {
      status: up ? 'ok' : 'error',
      checks: { database: up || shuttingDown ? 'up' : 'down' },
      version: this.config.version,
    };
    // Built only for the caller who will see them (the token is checked first, on the header alone).
    if (authorization !== undefined && this.operatorToken?.matches(authorization)) {
      report.details = {
        sign_in: this.oidc.health(),
        ...(shuttingDown && { shutting_down: true }),
      };
    }
    return report;
  }

  /**
   * The ping goes straight to the driver's pool, without a query runner (5.5 % of the probe's
   * CPU in a profile of the route). Without one (not connected yet, or closed) it fails, as a
   * TypeORM query would.
   */
  private pool(): Pick<Pool, 'query'> {
    return driverPool(this.dataSource) ?? NO_POOL;
  }

  private async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    try {
      const query = this.pool()
        .query('SELECT 1')
        .then(
          () => true,
          () => false,
        );
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
