import { Controller, Get, Header, Headers } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { METRICS_CONTENT_TYPE } from '../common/metrics/metrics';
import { MetricsService } from './metrics.service';

/**
 * Prometheus's scrape, on the service's own port. Left out of the OpenAPI document: it is for
 * the operator's Prometheus, not for API clients (docs/operations.md, "Metrics").
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', METRICS_CONTENT_TYPE)
  scrape(@Headers('authorization') authorization?: string): Promise<string> {
    return this.metrics.scrape(authorization);
  }
}
