import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import { AppConfig } from '../../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Credentials and signatures never reach a log line, whatever the level. Access lines carry no
 * headers at all (request-logging.ts); this covers anything else that logs a request or response.
 */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["stripe-signature"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

/** Honours a well-formed incoming X-Request-Id (a proxy's), otherwise makes one. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function loggerOptions(config: AppConfig, isTty = process.stdout.isTTY): Params {
  // Pretty output only when a person is watching a terminal (or asks), never in production.
  const pretty = !config.isProduction && (config.logPretty ?? isTty);
  return {
    // nestjs-pino serves the application's logs; its per-request middleware is not used: access
    // lines come from a Fastify hook (request-logging.ts), which needs no middleware layer.
    forRoutes: [],
    pinoHttp: {
      level: config.logLevel,
      // Should Nest still run nestjs-pino's middleware (it binds a per-request logger), it writes
      // no access line of its own, and a request it binds to a log line carries no headers.
      autoLogging: false,
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url.split('?', 1)[0],
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      transport: pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
    },
  };
}
