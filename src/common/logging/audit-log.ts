import { Injectable, Logger } from '@nestjs/common';
import { currentRequest } from './request-context';

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
    // The request's address (as Express resolves it under TRUST_PROXY), worked out here rather
    // than for every request; where there is a request (the CLI has none).
    const ip = currentRequest()?.ip;
    this.logger[level]({ audit: event, ...fields, ip, msg });
  }
}
