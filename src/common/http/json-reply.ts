import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';

/** What Express's `res.json` sets (`mime.contentType('application/json')`, then its charset). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Statuses whose answer Express strips of its body and content headers. */
const BODILESS = new Set([204, 205, 304]);

/**
 * Nest's Express adapter, with the common answer written directly: a route's object as JSON. For
 * that, `res.json` read three app settings, looked the media type up in mime-db, parsed and
 * rebuilt the content type to add the charset, converted bodies over 1000 bytes to a Buffer and
 * asked the request whether it was fresh, on every request. The answer here is the same bytes and
 * headers in the same order (`Content-Type`, then `Content-Length`). Everything else (no body,
 * a stream, an Error, a content type set by the route, HEAD, a conditional request, a bodiless
 * status, a Transfer-Encoding) still goes through Express. The service sets none of the JSON
 * settings (`json spaces`, `json replacer`, `json escape`) that `res.json` would honour.
 */
export class JsonReplyAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!isPlainJsonAnswer(response, body, statusCode)) {
      return super.reply(response, body, statusCode);
    }
    const text = JSON.stringify(body) as string | undefined;
    // A toJSON() that returns nothing: Express's own handling.
    if (typeof text !== 'string') return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', String(Buffer.byteLength(text)));
    return response.end(text);
  }
}

function isPlainJsonAnswer(response: Response, body: unknown, statusCode?: number): boolean {
  if (typeof body !== 'object' || body === null) return false;
  if (body instanceof StreamableFile || body instanceof Error || ArrayBuffer.isView(body)) {
    return false;
  }
  if (BODILESS.has(statusCode ?? response.statusCode)) return false;
  if (response.hasHeader('content-type') || response.hasHeader('transfer-encoding')) return false;
  // HEAD (no body) and conditional requests (Express may answer 304) stay with Express.
  const req = response.req as Request;
  const headers = req.headers;
  return (
    req.method !== 'HEAD' &&
    headers['if-none-match'] === undefined &&
    headers['if-modified-since'] === undefined
  );
}
