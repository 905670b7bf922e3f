import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** What an audit line needs from the request it happens in, wherever the service runs. */
interface AuditContext {
  ip?: string;
}

const requestContext = new AsyncLocalStorage<AuditContext>();

/**
 * Middleware: the client address (as Express resolves it under TRUST_PROXY) for the audit lines
 * the request's services write, so they need not be handed the request.
 */
export function auditContext() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    requestContext.run({ ip: req.ip }, next);
  };
}

/** `actor`: who did it (an account id, `cli`, `processor`); the rest says to what. */
export interface AuditFields {
  actor?: string;
  [field: string]: string | number | boolean | null | undefined;
}

/**
 * The one writer of `audit` lines (docs/operations.md): one per security event, at info, with who, what and from
 * which address. Never a token, a secret or a key: ids and reasons only.
 */
@Injectable()
export class AuditLog {
  private readonly logger = new Logger('Audit');

  /** `warn` for what an operator must look at (a provider that cannot be read), else info. */
  record(
    event: string,
    msg: string,
    fields: AuditFields = {},
    level: 'log' | 'warn' = 'log',
  ): void {
    // The request's address, where there is a request (the CLI has none).
    const ip = requestContext.getStore()?.ip;
    this.logger[level]({ audit: event, ...fields, ip, msg });
  }
}
