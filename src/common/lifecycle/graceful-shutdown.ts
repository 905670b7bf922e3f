import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { INestApplication, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Drain } from './drain';

/** How long a request whose body is still arriving gets, once the signal came, to finish sending it. */
const HALF_RECEIVED_GRACE_MS = 2000;

/**
 * SIGTERM (and SIGINT) as docs/operations.md says: readiness answers 503 at once and new
 * requests are refused, idle keep-alive connections close, requests in flight finish (one whose body
 * stops arriving is answered 503 after a short grace), connections without a request close, then Nest closes the app (timers stop, the HTTP
 * server and the database close) and the process exits 0. Past SHUTDOWN_TIMEOUT_SECONDS it exits
 * 1 whatever is still running (a processor call that never answers, say). A second signal exits
 * at once. Replaces Nest's enableShutdownHooks, which re-raises the signal (no status 0) and has
 * no deadline.
 */
export function installGracefulShutdown(app: INestApplication, config: AppConfig): void {
  const logger = new Logger('Shutdown');
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn(`${signal} again: exiting now, without waiting`);
      process.exit(1);
    }
    stopping = true;
    void shutdown(app, config, signal, logger);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutdown(
  app: INestApplication,
  config: AppConfig,
  signal: NodeJS.Signals,
  logger: Logger,
): Promise<void> {
  // Elapsed time for the log line only: a monotonic duration, not the time of day (no Clock).
  const started = performance.now();
  const seconds = config.shutdownTimeoutMs / 1000;
  const drain = app.get(Drain);
  const server = app.getHttpServer() as Server;
  drain.start();
  server.closeIdleConnections();
  logger.log(
    `${signal}: draining, health answers 503; ${drain.inFlight} request(s) in flight, up to ${seconds} s`,
  );
  const deadline = setTimeout(() => {
    logger.warn(
      `stopped at the ${seconds} s deadline with ${drain.inFlight} request(s) still in flight`,
    );
    process.exit(1);
  }, config.shutdownTimeoutMs);
  const grace = setTimeout(
    () => cutHalfReceived(drain, logger),
    Math.min(HALF_RECEIVED_GRACE_MS, config.shutdownTimeoutMs / 2),
  );
  try {
    await drain.idle();
    clearTimeout(grace);
    // What is left carries no request (silent, idle, or opened since): Node's close would wait for it.
    server.close();
    server.closeAllConnections();
    await app.close();
  } catch (err) {
    logger.error(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  clearTimeout(deadline);
  logger.log(`stopped cleanly in ${Math.round(performance.now() - started)} ms`);
  process.exit(0);
}

function cutHalfReceived(drain: Drain, logger: Logger): void {
  const cut = drain.cutIncomplete();
  if (cut > 0) logger.warn(`answered 503 to ${cut} request(s) whose body had not arrived`);
}
