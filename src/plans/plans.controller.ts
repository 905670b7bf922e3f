import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PlansService } from './plans.service';

const HTML = 'text/html; charset=utf-8';
/** Short: the pages carry contact details that operators may change with a restart. */
const CACHE = 'public, max-age=300';

/** The public plans pages under {site_url}; pages, not API, so they stay out of the API docs. */
@ApiExcludeController()
@Controller('plans')
export class PlansController {
  constructor(private readonly pages: PlansService) {}

  @Get()
  @Header('Content-Type', HTML)
  @Header('Cache-Control', CACHE)
  plans(): string {
    return this.pages.page('plans');
  }

  @Get('success')
  @Header('Content-Type', HTML)
  @Header('Cache-Control', 'no-store')
  success(): string {
    return this.pages.page('success');
  }

  @Get('cancel')
  @Header('Content-Type', HTML)
  @Header('Cache-Control', CACHE)
  cancel(): string {
    return this.pages.page('cancel');
  }
}
