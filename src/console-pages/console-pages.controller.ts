import { Controller, Get, Header, NotFoundException, Param, Redirect, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { ConsolePagesService } from './console-pages.service';

/**
 * The operators' console at /console/: a single-page app, so every path under it is the same
 * document and the app's router draws the page (a shared link and Back work). Its scripts and
 * styles are static files under /console/assets/ (app.setup.ts); a missing one is a 404, never
 * the document. Pages, not API: out of the API docs. Security headers: security-headers.ts.
 */
@ApiExcludeController()
@Controller('console')
export class ConsolePagesController {
  constructor(private readonly pages: ConsolePagesService) {}

  @Get()
  @Redirect('/console/', 301)
  bare(): void {}

  @Get('{*path}')
  @Header('Content-Type', 'text/html; charset=utf-8')
  // Revalidated on each visit: it names the build's hashed asset files, which are immutable.
  @Header('Cache-Control', 'no-cache')
  page(
    @Param('path') path: string[] | undefined,
    @Res({ passthrough: true }) res: Response,
  ): string {
    if (path?.[0] === 'assets') throw new NotFoundException();
    const { status, html } = this.pages.page();
    res.status(status);
    return html;
  }
}
