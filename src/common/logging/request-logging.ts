import type { FastifyInstance } from 'fastify';
import type { Params } from 'nestjs-pino';
import { Options, pinoHttp } from 'pino-http';

/**
 * Access logs and request ids, from a Fastify hook with the same pino-http options nestjs-pino
 * is given (so the same redaction, levels and destination). nestjs-pino's own middleware would run
 * through @fastify/middie, which costs a path match per request; LoggerModule is told to register
 * none (see loggerOptions) and serves only the application's logs.
 */
export function registerRequestLogging(fastify: FastifyInstance, params: Params): void {
  // loggerOptions gives options; the log-capturing tests give [options, stream].
  const [options, stream] = Array.isArray(params.pinoHttp)
    ? params.pinoHttp
    : [params.pinoHttp as Options | undefined, undefined];
  const logRequest = pinoHttp(options, stream);
  fastify.addHook('onRequest', (request, reply, done) => {
    // Sets X-Request-Id on the response and logs the request when it finishes.
    logRequest(request.raw, reply.raw);
    done();
  });
}
