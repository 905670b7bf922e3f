import { Controller, Get, Headers, HttpStatus, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorCode, statusOf } from '../common/errors/error-code.enum';
import { HealthReport, HealthService } from './health.service';

/** The report's shape, with an example of one outcome; `details` only with METRICS_TOKEN. */
const healthReport = (status: 'ok' | 'error', database: 'up' | 'down') => ({
  type: 'object',
  required: ['status', 'checks', 'version'],
  properties: {
    status: { type: 'string', enum: ['ok', 'error'] },
    checks: { type: 'object', properties: { database: { type: 'string', enum: ['up', 'down'] } } },
    version: { type: 'string' },
    details: {
      type: 'object',
      additionalProperties: true,
      description: 'only with `Authorization: Bearer <METRICS_TOKEN>`',
    },
  },
  example: {
    status,
    checks: { database },
    version: '0.1.0',
    details: {
      sign_in: { configured: true, discovered_issuer: 'https://idp.example', warnings: [] },
    },
  },
});

/**
 * The balancer's probes. They pass the same middlewares as every request (security headers,
 * request id, the drain's count) but leave no access line (logger.options.ts) and are not
 * counted in the request metrics.
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getHealth',
    summary: 'Readiness: the database answers (503 while it does not, or while shutting down)',
  })
  @ApiOkResponse({
    description: 'Ready; `details` never changes the status',
    schema: healthReport('ok', 'up'),
  })
  @ApiServiceUnavailableResponse({
    description: 'The database cannot be reached (the same report, not a problem)',
    schema: healthReport('error', 'down'),
  })
  async check(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) res: unknown,
  ): Promise<HealthReport> {
    const report = await this.health.check(authorization);
    // Not ready is the table's `unavailable` status; the body stays the report, not a problem.
    const status = report.status === 'ok' ? HttpStatus.OK : statusOf(ErrorCode.Unavailable);
    this.adapterHost.httpAdapter.status(res, status);
    return report;
  }

  /** Liveness: the process answers; says nothing about its dependencies. */
  @Get('live')
  @ApiOperation({ operationId: 'getLiveness', summary: 'Liveness: the process answers' })
  @ApiOkResponse({
    description: 'Alive',
    schema: { type: 'object', properties: { status: { enum: ['ok'] } }, example: { status: 'ok' } },
  })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
