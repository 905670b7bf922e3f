import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { ErrorCode } from '../errors/error-code.enum';
import { problem, ProblemDetails, sendProblem } from '../errors/problem-details';

export const JSON_LIMIT = '64kb';
export const WEBHOOK_JSON_LIMIT = '1mb';
/** Deeper than any body the API takes (processor events nest about 8 levels); refused before validation. */
export const MAX_JSON_DEPTH = 32;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Keeps the exact bytes next to the parsed body: webhook signatures are computed over them. */
function keepRawBody(req: Request & { rawBody?: Buffer }, _res: Response, buf: Buffer): void {
  req.rawBody = buf;
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function bodyError(err: { type?: string; status?: number }): ProblemDetails {
  switch (err.type) {
    case 'entity.too.large':
      return problem(413, ErrorCode.PayloadTooLarge, 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return problem(415, ErrorCode.UnsupportedMediaType, 'The body must be UTF-8 JSON.');
    case 'entity.parse.failed':
      return problem(400, ErrorCode.ValidationFailed, 'The request body is not valid JSON.');
    default:
      return problem(400, ErrorCode.ValidationFailed, 'The request body could not be read.');
  }
}

/**
 * JSON only: a body of any other type is refused with 415, and parse or size failures answer as
 * problem details here, because they happen before Nest's exception filters can see the request.
 */
export function jsonBodyParser(largeBodyPaths: string[]): RequestHandler {
  const small = express.json({ limit: JSON_LIMIT, verify: keepRawBody, type: () => true });
  const large = express.json({ limit: WEBHOOK_JSON_LIMIT, verify: keepRawBody, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!BODY_METHODS.has(req.method) || !hasBody(req)) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return sendProblem(
        res,
        problem(415, ErrorCode.UnsupportedMediaType, 'The request body must be application/json.'),
      );
    }
    const parser = largeBodyPaths.includes(req.path) ? large : small;
    parser(req, res, (err?: unknown) => {
      if (err) return sendProblem(res, bodyError(err));
      // Found by the reliability suite: a body nested thousands deep overflowed the validator's stack (500).
      if (jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) {
        return sendProblem(
          res,
          problem(400, ErrorCode.ValidationFailed, 'The request body is nested too deeply.'),
        );
      }
      next();
    });
  };
}

/** Whether a parsed JSON value nests deeper than `max` arrays/objects; iterative, so it cannot overflow. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
