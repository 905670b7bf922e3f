import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import { DestinationStream, stdSerializers } from 'pino';
import { HttpLogger, Options, pinoHttp } from 'pino-http';
import { AppConfig } from '../../config/app-config';
import { MONITORING_PATHS } from '../http/probe-paths';
import { serverLogDestination } from './log-destination';
import { pinoOptions } from './logger.factory';
import { requestIds } from './request-id';
import { pathOf } from '../http/http-request';

/** The error pino-http makes up for a 5xx answer that had none: its stack is pino-http's own. */
const SYNTHETIC_ERROR = /^failed with status code \d{3}$/;

/**
 * docs/operations.md: expected 4xx are `info`; 502 and 503 (the processor or the database
 * away, draining) `warn`; only other 5xx, real faults, `error` (their stack is logged by the
 * problem-details filter, where the exception is).
 */
export function accessLevel(status: number): 'info' | 'warn' | 'error' {
  if (status === 502 || status === 503) return 'warn';
  return status >= 500 ? 'error' : 'info';
}

/** The request as Express hands it to the serializer (not wrapped: see `wrapSerializers`). */
type RequestLogView = IncomingMessage & { id?: unknown; originalUrl?: string };

/**
 * The access log: pino-http with the LoggerModule's own options (so the same serializers, levels and
 * destination; the log-capturing tests give [options, stream]). It must be the first middleware,
 * so a request refused by a later one (CORS, body parsing, static files) is logged too; LoggerModule adds no middleware of its own (`forRoutes: []`).
 */
export function accessLog(params: Params): HttpLogger {
  const [options, stream] = Array.isArray(params.pinoHttp)
    ? params.pinoHttp
    : [params.pinoHttp as Options | undefined, undefined];
  return pinoHttp(options, stream);
}

/** `stream`: where the JSON lines go (the tests' capture); the buffered stdout by default. */
export function loggerOptions(
  config: AppConfig,
  isTty = process.stdout.isTTY,
  stream?: DestinationStream,
): Params {
  const options = accessLogOptions(config, isTty);
  // accessLog() writes the access line. nestjs-pino's middleware, which would bind req.log as the
  // logger of the request's application logs, is not mounted (`forRoutes: []`): app.setup.ts's
  // request context does that (request-context.ts), one AsyncLocalStorage a request instead of
  // two. A route adds fields to its access line with @RequestAccessLine (access-line.ts), not
  // PinoLogger.assign. Pretty output goes through pino's transport (a worker thread); JSON to
  // the buffered stdout.
  return {
    useExisting: true,
    forRoutes: [],
    pinoHttp: options.transport ? options : [options, stream ?? serverLogDestination()],
  };
}

/** The access log's and the application's logger options (the destination aside). */
function accessLogOptions(config: AppConfig, isTty = process.stdout.isTTY): Options {
  // Pretty output only when a person is watching a terminal (or asks), never in production.
  const pretty = !config.isProduction && (config.logPretty ?? isTty);
  return {
    ...pinoOptions({ level: config.logLevel, pretty }),
    genReqId: requestIds(config.trustProxy),
    // A failing probe shows as a 503 to the prober, a failing scrape in Prometheus. Logging them
    // costs more than answering them.
    autoLogging: { ignore: (req) => MONITORING_PATHS.has(pathOf(req.url ?? '')) },
    customLogLevel: (_req, res) => accessLevel(res.statusCode),
    // No headers: they hold credentials, and serializing and redacting them on every line was a
    // measurable part of a request's cost (docs/operations.md). Every `req` and `res` of every
    // line, the application's too, passes these, so no redaction paths are needed: pino's
    // redaction parsed its paths and cloned the value for every line and child logger, headers
    // or not. Query strings may carry cursors and emails; the path is enough to find a request.
    // Ours read the raw request and response: pino's standard ones, which pino-http wraps around
    // them by default, first copied every header (and parsed Express's query string) on every
    // request, including the probes whose line is dropped, only for ours to keep five fields.
    wrapSerializers: false,
    serializers: {
      req: (req: RequestLogView) => ({
        id: req.id,
        method: req.method,
        url: pathOf(req.originalUrl ?? req.url ?? ''),
        remoteAddress: req.socket?.remoteAddress,
        userAgent: req.headers['user-agent'],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // Only a real error's stack: the made-up one of a 5xx says nothing (the status does).
      err: (err: Error) =>
        SYNTHETIC_ERROR.test(err.message ?? '') ? undefined : stdSerializers.err(err),
    },
  };
}
