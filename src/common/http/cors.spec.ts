import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders } from './cors';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
type CorsOptions = Record<string, unknown>;

// The package corsHeaders replaced (still a dependency of @nestjs/platform-express): the answers
// must stay its answers, for the options the service gave it. It ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const cors = require('cors') as (
  options: (req: IncomingMessage, callback: (err: null, options: CorsOptions) => void) => void,
) => Middleware;

const ORIGINS = ['http://localhost:3000', 'https://www.example.com'];

/** The options app.setup.ts gave `cors` before (built again on every request). */
const previous = cors((req, callback) => {
  const listed = ORIGINS.includes(req.headers.origin ?? '');
  callback(null, {
    origin: ORIGINS,
    credentials: listed,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
});

interface Outcome {
  headers: Record<string, string>;
  status: number;
  ended: boolean;
  nextCalled: boolean;
}

function run(middleware: Middleware, method: string, headers: Record<string, string>): Outcome {
  const out: Outcome = { headers: {}, status: 200, ended: false, nextCalled: false };
  const res = {
    set statusCode(code: number) {
      out.status = code;
    },
    getHeader: (name: string) => out.headers[name.toLowerCase()],
    setHeader: (name: string, value: string | number) => {
      out.headers[name.toLowerCase()] = String(value);
    },
    end: () => (out.ended = true),
  } as unknown as ServerResponse;
  const { vary, ...requestHeaders } = headers;
  if (vary !== undefined) out.headers.vary = vary;
  middleware({ method, headers: requestHeaders } as unknown as IncomingMessage, res, () => {
    out.nextCalled = true;
  });
  return out;
}

describe('corsHeaders', () => {
  const current = corsHeaders(ORIGINS);
  const origins = [undefined, ORIGINS[0], ORIGINS[1], 'https://evil.example', 'null', ''];
  const methods = ['GET', 'POST', 'DELETE', 'OPTIONS'];

  it.each(methods.flatMap((method) => origins.map((origin) => [method, origin] as const)))(
    '%s with Origin %p: the answer cors gave',
    (method, origin) => {
      const headers: Record<string, string> = { 'access-control-request-method': 'POST' };
      if (origin !== undefined) headers.origin = origin;
      const before = run(previous, method, headers);
      const now = run(current, method, headers);
      if (origin === undefined && method !== 'OPTIONS') {
        // Without Origin (no CORS request): only Vary, so caches keep the answers apart.
        expect(now).toEqual({ ...before, headers: { vary: 'Origin' } });
        expect(before.headers).toEqual({
          vary: 'Origin',
          'access-control-expose-headers': 'X-Request-Id,Retry-After',
        });
      } else {
        expect(now).toEqual(before);
      }
    },
  );

  it('adds Origin to a Vary already set, as the vary package does', () => {
    for (const vary of ['Accept-Encoding', 'origin', '*', '']) {
      const headers = { origin: ORIGINS[0], vary };
      expect(run(current, 'GET', headers)).toEqual(run(previous, 'GET', headers));
    }
  });

  it('credentials and the origin go to a listed origin only', () => {
    const listed = run(current, 'GET', { origin: ORIGINS[1] }).headers;
    expect(listed['access-control-allow-origin']).toBe(ORIGINS[1]);
    expect(listed['access-control-allow-credentials']).toBe('true');
    const foreign = run(current, 'GET', { origin: 'https://evil.example' }).headers;
    expect(foreign['access-control-allow-origin']).toBeUndefined();
    expect(foreign['access-control-allow-credentials']).toBeUndefined();
  });
});
