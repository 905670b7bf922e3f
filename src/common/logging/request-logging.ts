import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';

const HEALTH_PATHS = new Set(['/health', '/health/live']);

/**
 * One access line per request, written when the response is done, with the request id that is
 * also echoed as X-Request-Id (made by the server's genReqId, see app.setup.ts; the header is set
 * by the security-headers hook, one hook per request being cheaper than two).
 */
export function registerRequestLogging(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply);
    done();
  });
}

function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  // Query strings may carry cursors and emails; the path is enough to find a request.
  const url = request.url.split('?', 1)[0];
  // Probes arrive every few seconds from each balancer and say nothing new; a failing one
  // shows as a 503 to the prober. Logging them costs more than answering them.
  if (HEALTH_PATHS.has(url)) return;
  const status = reply.statusCode;
  const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
  // The root logger nestjs-pino builds from loggerOptions: same level, redaction and destination.
  const log = PinoLogger.root;
  if (!log.isLevelEnabled(level)) return;
  // No headers: they hold credentials, and serializing and redacting them on every request was
  // a measurable part of its cost (bench/findings.md).
  log[level](
    {
      reqId: request.id,
      method: request.method,
      url,
      status,
      ms: Math.round(reply.elapsedTime),
      remoteAddress: request.ip,
      userAgent: request.headers['user-agent'],
    },
    'request completed',
  );
}
