import { Injectable } from '@nestjs/common';
import {
  HealthCheckService,
  HealthIndicatorResult,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OidcDiscovery, SignInHealth } from '../auth/oidc-discovery.service';
import { BearerToken } from '../common/http/bearer-token';
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

/** A database ping short enough that a dead database shows within a few seconds. */
const PING_TIMEOUT_MS = 1500;

/**
 * Terminus runs the check; the database indicator is our own ping, because terminus's TypeORM
 * indicator re-resolved its packages with require() and looked the data source up on every
 * call, which cost more than the ping itself (see bench/findings.md).
 */
@Injectable()
export class HealthService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
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
    const report = await this.probe();
    if (!this.operatorToken?.matches(authorization)) delete report.details;
    return report;
  }

  private async probe(): Promise<HealthReport> {
    // Draining on SIGTERM: not ready, whatever the database says, so the balancer stops sending.
    if (this.drain.draining) return this.report(false, true);
    let up: boolean;
    try {
      up = (await this.health.check([() => this.database()])).status === 'ok';
    } catch {
      up = false; // terminus throws a 503 carrying the failed check; the flag is all we report
    }
    return this.report(up, false);
  }

  private report(up: boolean, shuttingDown: boolean): HealthReport {
    return {
      status: up ? 'ok' : 'error',
      checks: { database: up || shuttingDown ? 'up' : 'down' },
      version: this.config.version,
      details: { sign_in: this.oidc.health(), ...(shuttingDown && { shutting_down: true }) },
    };
  }

  private async database(): Promise<HealthIndicatorResult<'database'>> {
    const indicator = this.indicators.check('database');
    return (await this.ping()) ? indicator.up() : indicator.down();
  }

  private async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    try {
      const query = this.dataSource.query('SELECT 1').then(
        () => true,
        () => false,
      );
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
