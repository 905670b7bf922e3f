import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { AppConfig } from '../../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HEALTH_PATHS = new Set(['/health', '/health/live']);

/** Credentials and signatures never reach a log line, whatever the level. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["stripe-signature"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

/** Honours a well-formed incoming X-Request-Id (a proxy's), otherwise makes one; echoes it back. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export function loggerOptions(config: AppConfig, isTty = process.stdout.isTTY): Params {
  // Pretty output only when a person is watching a terminal (or asks), never in production.
  const pretty = !config.isProduction && (config.logPretty ?? isTty);
  return {
    // Request logs come from a Fastify hook (request-logging.ts), not from a Nest middleware.
    forRoutes: [],
    pinoHttp: {
      level: config.logLevel,
      genReqId: requestId,
      // Probes arrive every few seconds from each balancer and say nothing new; a failing one
      // shows as a 503 to the prober. Logging them costs more than answering them.
      autoLogging: { ignore: (req) => HEALTH_PATHS.has((req.url ?? '').split('?')[0]) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      // Query strings may carry cursors and emails; the path is enough to find a request.
      serializers: {
        req: (req: {
          id: string;
          method: string;
          url: string;
          headers: unknown;
          remoteAddress: string;
        }) => ({
          id: req.id,
          method: req.method,
          url: req.url.split('?')[0],
          headers: req.headers,
          remoteAddress: req.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      transport: pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
    },
  };
}
