import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Response } from 'express';
import { JsonReplyAdapter } from './json-reply';

interface Answer {
  status: number;
  headers: string[];
  body: string;
}

type Reply = (res: Response) => void;

/** One request to an Express app whose only route answers through `reply`. */
async function answer(
  reply: Reply,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<Answer> {
  const app = express();
  app.set('etag', false);
  app.disable('x-powered-by');
  app.all('/', (_req, res) => reply(res));
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ port, method, headers, host: '127.0.0.1', path: '/' });
    req.end();
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    let body = '';
    for await (const chunk of res) body += String(chunk);
    // Date changes from one answer to the next; everything else must not.
    const raw = res.rawHeaders.filter((_, i, all) => all[i - (i % 2)] !== 'Date');
    return { status: res.statusCode!, headers: raw, body };
  } finally {
    server.close();
  }
}

describe('JsonReplyAdapter', () => {
  const nests = new ExpressAdapter();
  const ours = new JsonReplyAdapter();
  const large = { items: Array.from({ length: 40 }, (_, i) => ({ id: i, name: `n\u00e9-${i}` })) };

  interface Case {
    body: unknown;
    status?: number;
    method?: string;
    headers?: Record<string, string>;
    before?: Reply;
  }
  const cases: Record<string, Case> = {
    'an object': { body: { a: 1, b: 'x', c: null } },
    'an object with a status': { body: { id: 'x' }, status: 201, method: 'POST' },
    'an array over 1000 bytes with non-ASCII text': { body: large },
    HEAD: { body: { a: 1 }, method: 'HEAD' },
    'If-None-Match: *': { body: { a: 1 }, headers: { 'if-none-match': '*' } },
    'If-Modified-Since': { body: { a: 1 }, headers: { 'if-modified-since': 'x' } },
    'a 204': { body: { a: 1 }, status: 204 },
    'no body': { body: undefined, status: 204, method: 'DELETE' },
    null: { body: null },
    'a string': { body: 'text' },
    'an Error': { body: new Error('boom'), status: 500 },
    'a Buffer': { body: Buffer.from('ab') },
    'a toJSON': { body: { toJSON: () => ({ x: 1 }) } },
    'a content type set by the route': {
      body: { a: 1 },
      before: (res) => res.setHeader('Content-Type', 'application/problem+json'),
    },
    'headers set before': {
      body: { a: 1 },
      before: (res) => res.setHeader('Cache-Control', 'no-store').setHeader('X-Request-Id', 'r'),
    },
  };

  it.each(Object.keys(cases))('answers %s as Express does', async (name) => {
    const { body, status, method, headers, before } = cases[name];
    const via =
      (adapter: ExpressAdapter): Reply =>
      (res) => {
        before?.(res);
        adapter.reply(res, body, status);
      };
    const expected = await answer(via(nests), method, headers);
    expect(await answer(via(ours), method, headers)).toEqual(expected);
  });
});
