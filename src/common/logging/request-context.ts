import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request, RequestHandler } from 'express';
import { PinoLogger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';

/**
 * The request a piece of work belongs to, for the lines it writes: the application's logger
 * (`req.log`, pino-http's logger for the request, bound to its id and access-line fields) and the
 * audit lines' client address (`req.ip`, worked out by proxy-addr only when an audit line asks).
 * The store is the request itself: nothing is made per request.
 *
 * The one AsyncLocalStorage of a request. nestjs-pino ran a second one (its middleware, behind the
 * others, bound `req.log` for PinoLogger): a second run per request, a second context frame
 * for every promise after it, and Nest's middleware wrapper around it. Its middleware is not
 * mounted (loggerOptions: `forRoutes: []`) and RequestPinoLogger reads this one instead.
 */
const storage = new AsyncLocalStorage<Request>();

/** Middleware: the rest of the request runs in its context. */
export function requestContext(): RequestHandler {
  return (req, _res, next) => storage.run(req, next);
}

/**
 * Runs `work` outside any request: for work that outlives the request that started it (the
 * outgoing-webhook worker's pass), whose lines and async resources must not carry the request.
 * What a request opens and a later one reuses (a pool connection, a keep-alive socket) keeps the
 * context it was made in for its life; the pools bound how many requests are held that way.
 */
export function outsideRequest<T>(work: () => T): T {
  return storage.exit(work);
}

/** The request the current work belongs to; undefined outside one (the CLI, boot, timers). */
export function currentRequest(): Request | undefined {
  return storage.getStore();
}

/**
 * nestjs-pino's PinoLogger (through its public `logger` accessor), whose lines in a request go to
 * that request's logger, as with nestjs-pino's own middleware; elsewhere to the root logger. The
 * application logger (app.setup.ts) is nestjs-pino's Logger over this. `PinoLogger.assign` has no
 * request scope with it (nestjs-pino's storage is never entered): use @RequestAccessLine.
 */
export class RequestPinoLogger extends PinoLogger {
  override get logger(): Pino {
    return storage.getStore()?.log ?? super.logger;
  }
}
