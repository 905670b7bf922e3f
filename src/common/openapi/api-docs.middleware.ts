import type { NestExpressApplication } from '@nestjs/platform-express';
import { type Request, type RequestHandler, Router } from 'express';
import type { AppConfig } from '../../config/app-config';
import { pathOf, protohostOf } from '../http/http-request';
import { API_DOCS_JSON_PATH, API_DOCS_PATH, buildApiDocument } from './api-document';
import { swaggerLib } from './swagger.decorator';

const DOCS = `/${API_DOCS_PATH}`;

/**
 * The paths SwaggerModule serves: the UI (with or without its slash), its assets under it, the
 * JSON and the YAML document. Case-sensitive, as the app's routing is; a proxy's absolute-form
 * target (`http://host/api/docs`) counts by its path, as Express's router reads it.
 */
export function servesDocs(url: string): boolean {
  const path = pathOf(url.slice(protohostOf(url).length));
  return (
    path === DOCS ||
    path.startsWith(`${DOCS}/`) ||
    path === `/${API_DOCS_JSON_PATH}` ||
    path === `${DOCS}-yaml`
  );
}

/**
 * /api/docs (Swagger UI), its assets and /api/docs-json and -yaml, as `SwaggerModule.setup` serves
 * them, set up on the first request for one of them instead of at boot, so a server nobody asks
 * for its documentation never loads `@nestjs/swagger` (swagger.decorator.ts says what that holds).
 * The front chain's last step, where the setup's layers were (after the body parsers, before the
 * routes): SwaggerModule registers its routes and static assets on the adapter it is given, here
 * one whose Express instance is a router with the app's routing settings, run by this step;
 * everything else (the global prefix, the adapter's other methods) is the app's own. The document
 * is built on its first request, as before.
 */
export function apiDocs(app: NestExpressApplication, config: AppConfig): RequestHandler {
  let docs: Router | undefined;
  return (req, res, next) => {
    if (!servesDocs(req.url)) return next();
    // The first request loads Swagger and builds its routes synchronously (~0.2 s, once).
    docs ??= docsRouter(app, config, req);
    docs(req, res, next);
  };
}

function docsRouter(app: NestExpressApplication, config: AppConfig, req: Request): Router {
  const settings = req.app;
  const router = Router({
    strict: settings.enabled('strict routing'),
    caseSensitive: settings.enabled('case sensitive routing'),
  });
  // Nest's adapter methods (get, use, useStaticAssets) act on `this.instance`: here, the router.
  const adapter = Object.create(app.getHttpAdapter(), {
    instance: { value: router },
  }) as { useStaticAssets(path: string, options: object): unknown };
  const docsApp = Object.create(app, {
    getHttpAdapter: { value: () => adapter },
    useStaticAssets: {
      value: (path: string, options: object) => {
        adapter.useStaticAssets(path, options);
        return docsApp;
      },
    },
  }) as NestExpressApplication;
  swaggerLib().SwaggerModule.setup(API_DOCS_PATH, docsApp, () => buildApiDocument(app, config), {
    jsonDocumentUrl: API_DOCS_JSON_PATH,
  });
  return router;
}
