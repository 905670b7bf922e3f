import { Writable } from 'node:stream';
import pino, { DestinationStream, LoggerOptions } from 'pino';
import { AppConfig } from '../../config/app-config';
import { loggerOptions } from './logger.options';

/** The server's logger as loggerOptions builds it, writing into `lines`. */
function serverLogger(lines: string[]) {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const params = loggerOptions(AppConfig.fromEnv({ LOG_LEVEL: 'trace' }), false, sink);
  const [options, stream] = params.pinoHttp as [LoggerOptions, DestinationStream];
  return pino(options, stream);
}

describe('the server logger', () => {
  // It has no redaction paths: its serializers must keep every credential out by themselves.
  it('keeps no header of a logged request or response but the user agent', () => {
    const lines: string[] = [];
    const req = {
      id: 'r-1',
      method: 'GET',
      url: '/api/auth/me?cursor=c',
      socket: { remoteAddress: '127.0.0.1' },
      headers: {
        'user-agent': 'probe/1',
        cookie: 'service_session=cookie-secret',
        authorization: 'Bearer bearer-secret',
        'stripe-signature': 't=1,v1=signature-secret',
      },
    };
    const res = { statusCode: 200, headers: { 'set-cookie': 'service_session=set-secret' } };
    const logger = serverLogger(lines);
    logger.child({ req }).info({ res }, 'request completed');
    logger.warn({ req, res }, 'application line');

    expect(lines).toHaveLength(2);
    const logged = lines.join('');
    for (const secret of ['cookie-secret', 'bearer-secret', 'signature-secret', 'set-secret']) {
      expect(logged).not.toContain(secret);
    }
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line.req).toEqual({
      id: 'r-1',
      method: 'GET',
      url: '/api/auth/me',
      remoteAddress: '127.0.0.1',
      userAgent: 'probe/1',
    });
    expect(line.res).toEqual({ statusCode: 200 });
  });
});
