import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { parse } from 'qs';
import type { Json } from './completed-session';

/** The processor's API conventions at the HTTP level, for the stand-in and the test suite's fake. */
export const SESSIONS_PATH = '/v1/checkout/sessions';
export const CUSTOMERS_PATH = '/v1/customers';

/** The customer id of `DELETE /v1/customers/{id}`; undefined for any other request. */
export function customerToDelete(method: string | undefined, path: string): string | undefined {
  if (method !== 'DELETE' || !path.startsWith(`${CUSTOMERS_PATH}/`)) return undefined;
  const id = decodeURIComponent(path.slice(CUSTOMERS_PATH.length + 1));
  return id && !id.includes('/') ? id : undefined;
}

/** The session id of `POST /v1/checkout/sessions/{id}/expire`; undefined for any other request. */
export function sessionToExpire(method: string | undefined, path: string): string | undefined {
  const match = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
  return method === 'POST' && match ? decodeURIComponent(match[1]) : undefined;
}

/** What the processor answers a customer's deletion with. */
export const deletedCustomer = (id: string) => ({ id, object: 'customer', deleted: true });

export const noSuchCustomer = (id: string) =>
  apiError('invalid_request_error', 'resource_missing', `No such customer: '${id}'`, 'id');

/** A form or JSON value as text: parsed forms hold strings, arrays and objects. */
export const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** The `expand[]` values of a query string. */
export function expandOf(query: string): string[] {
  return [...new URLSearchParams(query).entries()]
    .filter(([k]) => k.startsWith('expand'))
    .map(([, v]) => v);
}

/** The processor's error body. */
export function apiError(type: string, code: string | undefined, message: string, param?: string) {
  return { error: { type, ...(code ? { code } : {}), message, ...(param ? { param } : {}) } };
}

export const noSuchSession = (id: string) =>
  apiError(
    'invalid_request_error',
    'resource_missing',
    `No such checkout.session: '${id}'`,
    'session',
  );

export function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(json),
    'Request-Id': `req_${randomBytes(6).toString('hex')}`,
  });
  res.end(json);
}

/** A form body as the SDK encodes it (`line_items[0][price]=…`), nested back into objects. */
export function parseForm(body: string): Json {
  return parse(body, { depth: 10, arrayLimit: 100 });
}
