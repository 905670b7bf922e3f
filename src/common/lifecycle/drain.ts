import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ErrorCode } from '../errors/error-code.enum';
import { problem, PROBLEM_CONTENT_TYPE } from '../errors/problem-details';
import { HEALTH_PATHS } from '../http/probe-paths';

/**
 * The process's drain state on SIGTERM (docs/operations.md): the requests in flight, and
 * whether new ones are still taken. One per app; health and the shutdown read it.
 */
@Injectable()
export class Drain {
  private inFlightCount = 0;
  private isDraining = false;
  private waiters: (() => void)[] = [];

  get draining(): boolean {
    return this.isDraining;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** From now on, new requests are refused (503) and readiness answers 503. */
  start(): void {
    this.isDraining = true;
  }

  /** Resolves once no request is in flight. */
  idle(): Promise<void> {
    if (this.inFlightCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Middleware: counts requests until their answer is sent; refuses new ones while draining. */
  gate() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (this.isDraining && !HEALTH_PATHS.has(req.path)) return refuse(res);
      this.inFlightCount++;
      res.once('close', () => this.done());
      next();
    };
  }

  private done(): void {
    this.inFlightCount--;
    if (this.inFlightCount > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** A 503 the client may retry elsewhere; the connection closes so it reconnects to another instance. */
function refuse(res: Response): void {
  const body = problem(503, ErrorCode.Unavailable, 'The service is shutting down.');
  res.status(503).set({
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Retry-After': '1',
    Connection: 'close',
  });
  res.end(JSON.stringify(body));
}
