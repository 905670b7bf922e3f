import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HealthReport, HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOkResponse({ description: '`{"status":"ok","checks":{"database":"up"},"version":"…"}`' })
  @ApiServiceUnavailableResponse({ description: 'The database cannot be reached' })
  async check(@Res({ passthrough: true }) res: FastifyReply): Promise<HealthReport> {
    const report = await this.health.check();
    void res.status(report.status === 'ok' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }

  /** Liveness: the process answers; says nothing about its dependencies. */
  @Get('live')
  @ApiOkResponse({ description: '`{"status":"ok"}`' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
