/**
 * The bare node:http twin: the handlers of twin-handlers.ts with no framework at all, a reference
 * column beside the bare Nest app (`bare-nest.ts`), which is the yardstick the bench divides by.
 */
import { createServer, ServerResponse } from 'node:http';
import { pool, routes } from './twin-handlers';

const PORT = Number(process.env.PORT);

function send(res: ServerResponse, status: number, payload: unknown): void {
  const json = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://twin');
    const handler = routes[`${req.method} ${url.pathname}`];
    if (!handler) return send(res, 404, { code: 'not_found' });
    handler(req, Buffer.concat(chunks), url).then(
      ([status, payload]) => send(res, status, payload),
      (err: unknown) => send(res, 500, { code: 'internal_error', detail: String(err) }),
    );
  });
});

server.listen(PORT, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
