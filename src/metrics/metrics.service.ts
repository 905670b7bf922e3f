import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, register } from 'prom-client';
import { DataSource } from 'typeorm';
import { ErrorCode, exampleOf } from '../common/errors/error-code.enum';
import { BearerToken } from '../common/http/bearer-token';
import { collectProcessMetrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/app-config';
import { driverPool } from '../database/statement-rows';
import { SubscriptionService } from '../subscription/subscription.service';
import { MetricsError } from './metrics.error';

/** The pg pool behind TypeORM's postgres driver: the counts it keeps. */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** The database the gauges read at scrape time: the running app's (one per process in production). */
let source: DataSource | undefined;

function pool(): PoolCounts | undefined {
  return source ? driverPool(source) : undefined;
}

new Gauge({
  name: 'db_pool_connections_in_use',
  help: 'Database connections checked out of the pool',
  collect() {
    const p = pool();
    this.set(p ? p.totalCount - p.idleCount : 0);
  },
});

new Gauge({
  name: 'db_pool_requests_waiting',
  help: 'Queries waiting for a free database connection',
  collect() {
    this.set(pool()?.waitingCount ?? 0);
  },
});

const subscriptions = new Gauge({
  name: 'subscriptions',
  help: 'Subscription records by status',
  labelNames: ['status'] as const,
});

/** The scrape: everything on prom-client's default registry, behind METRICS_TOKEN when set. */
@Injectable()
export class MetricsService implements OnModuleInit, OnApplicationShutdown {
  private readonly enabled: boolean;
  private readonly token?: BearerToken;

  constructor(
    config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly subscriptionRecords: SubscriptionService,
  ) {
    this.enabled = config.metricsEnabled;
    this.token = config.metricsToken ? new BearerToken(config.metricsToken) : undefined;
  }

  onModuleInit(): void {
    if (this.enabled) collectProcessMetrics();
    source = this.dataSource;
  }

  onApplicationShutdown(): void {
    if (source === this.dataSource) source = undefined;
  }

  async scrape(authorization: string | undefined): Promise<string> {
    // Turned off, the route answers as a path that does not exist would.
    if (!this.enabled) throw new MetricsError(ErrorCode.NotFound, exampleOf(ErrorCode.NotFound));
    this.authorize(authorization);
    // A database away must not fail the scrape: the other metrics say so better.
    await this.countSubscriptions().catch(() => subscriptions.reset());
    return register.metrics();
  }

  /** Read at scrape time: one grouped count, cheap on the status index. */
  private async countSubscriptions(): Promise<void> {
    if (!this.dataSource.isInitialized) return;
    // Every status, 0 included: an alert on "no paid ones" needs the series to exist.
    const counts = await this.subscriptionRecords.countByStatus();
    for (const [status, n] of Object.entries(counts)) subscriptions.set({ status }, n);
  }

  private authorize(authorization: string | undefined): void {
    if (this.token && !this.token.matches(authorization)) {
      throw new MetricsError(ErrorCode.Unauthenticated, 'A metrics token is required.', undefined, {
        'WWW-Authenticate': 'Bearer',
      });
    }
  }
}
