import { Injectable } from '@nestjs/common';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';

export interface HealthReport {
  status: 'ok' | 'error';
  checks: { database: 'up' | 'down' };
  version: string;
}

/** A database ping short enough that a dead database shows within a few seconds. */
const PING_TIMEOUT_MS = 1500;

@Injectable()
export class HealthService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly config: AppConfig,
  ) {}

  async check(): Promise<HealthReport> {
    let up = false;
    try {
      const result = await this.health.check([
        () => this.db.pingCheck('database', { timeout: PING_TIMEOUT_MS }),
      ]);
      up = result.status === 'ok';
    } catch {
      up = false; // terminus throws a 503 carrying the failed check; the flag is all we report
    }
    return {
      status: up ? 'ok' : 'error',
      checks: { database: up ? 'up' : 'down' },
      version: this.config.version,
    };
  }
}
