import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import { FieldError } from './app.exception';
import { ErrorCode } from './error-code.enum';

/** RFC 9457 problem details, the body of every error response. */
export interface ProblemDetails {
  type: 'about:blank';
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problem(
  status: number,
  code: ErrorCode,
  detail: string,
  errors?: FieldError[],
): ProblemDetails {
  const body: ProblemDetails = {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    code,
    detail,
  };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}

/** Writes a problem response on the reply. */
export function sendProblem(
  reply: FastifyReply,
  body: ProblemDetails,
  headers?: Record<string, string>,
): void {
  if (headers) void reply.headers(headers);
  void reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}
