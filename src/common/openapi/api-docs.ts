import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { RequestHandler } from 'express';
import type { AppConfig } from '../../config/app-config';
import { DomainError } from '../errors/domain.error';
import { ErrorCode, exampleOf } from '../errors/error-code.enum';
import { API_DOCS_JSON_PATH, API_DOCS_PATH, buildApiDocument } from './api-document';

/**
 * The files of Swagger UI's page (the HTML's assets, under `/api/docs/` and the `./docs/` its
 * HTML links to). SwaggerModule serves the whole swagger-ui-dist folder, with its package.json
 * and source maps; nothing else there is for the page. test/http/api-docs.e2e-spec.ts loads every
 * asset the HTML names, so a Swagger UI that needs another one fails there.
 */
const UI_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'swagger-ui-init.js',
  'favicon-16x16.png',
  'favicon-32x32.png',
];

/** The paths below `/api/docs` that are served: the page, and its files at both places. */
const SERVED = new Set(['/', '/index.html', ...UI_FILES.flatMap((f) => [`/${f}`, `/docs/${f}`])]);

/** `/api/docs` (Swagger UI) and `/api/docs-json` and `-yaml`: the document is built on its first request. */
export function setupApiDocs(app: NestExpressApplication, config: AppConfig): void {
  app.use(`/${API_DOCS_PATH}`, onlyUiFiles());
  SwaggerModule.setup(API_DOCS_PATH, app, () => buildApiDocument(app, config), {
    jsonDocumentUrl: API_DOCS_JSON_PATH,
  });
}

/** Below the docs' path: the page itself and its files; anything else is the routes' 404. */
function onlyUiFiles(): RequestHandler {
  return (req, _res, next) => {
    // req.path is below the mount: `/`, `/swagger-ui.css`, `/docs/swagger-ui.css`.
    if (SERVED.has(req.path)) return next();
    next(new DomainError(ErrorCode.NotFound, exampleOf(ErrorCode.NotFound)));
  };
}
