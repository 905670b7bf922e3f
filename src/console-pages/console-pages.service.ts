import { readFileSync } from 'node:fs';
import { Injectable, Logger } from '@nestjs/common';
import { CONSOLE_INDEX, consoleBuilt } from './console-pages.files';

/** What a console page answers when there is no build to serve (a server started from src/ only). */
const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><main><h1>The console is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and reload.</p></main></body></html>`;

/** The console's one document, read once at boot: every page under /console/ is this file. */
@Injectable()
export class ConsolePagesService {
  private readonly index: string | undefined;

  constructor() {
    this.index = consoleBuilt() ? readFileSync(CONSOLE_INDEX, 'utf8') : undefined;
    if (!this.index) new Logger('Console').warn('console/dist is missing: /console/ says so');
  }

  /** The app's document, or a page saying how to build it (503). */
  page(): { status: number; html: string } {
    return this.index ? { status: 200, html: this.index } : { status: 503, html: NOT_BUILT };
  }
}
