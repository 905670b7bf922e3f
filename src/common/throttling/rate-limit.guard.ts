import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { ErrorCode } from '../errors/error-code.enum';
import { HandlerMetadata } from '../http/handler-metadata';
import type { HttpRequest } from '../http/http-request';
import { ApiProblems } from '../openapi/api-problems.decorator';
import type { ThrottlerStorageRecord } from './fixed-window.storage';
import { addressGroup } from './client-address';
import { RateLimitPolicy, rateLimited, RateLimitService } from './rate-limit.service';

/** What a limit counts by: the client address (under TRUST_PROXY; IPv6 by /64) or a body field. */
export type RateLimitKey = 'ip' | `body.${string}`;

/** A route's rule, its key readers made when the decorator runs (as the controller loads). */
interface RateLimitRule {
  policy: RateLimitPolicy;
  readers: KeyReader[];
}

/** The rule with its allowance from the configuration, made once per handler. */
interface ResolvedRule extends RateLimitRule {
  limit: number;
  limitHeader: string;
}

/** How one key reads its tracker from a request; the key names the counter. */
interface KeyReader {
  key: RateLimitKey;
  tracker: (req: HttpRequest) => string | undefined;
}

const RATE_LIMIT = Symbol('rate-limit');

/** Limits a route to the policy's allowance per minute, counted separately for each key. */
export function RateLimit(policy: RateLimitPolicy, keys: RateLimitKey[] = ['ip']) {
  const readers = keys.map((key) => ({ key, tracker: trackerReader(key) }));
  return applyDecorators(
    SetMetadata(RATE_LIMIT, { policy, readers } satisfies RateLimitRule),
    UseGuards(RateLimitGuard),
    ApiProblems(ErrorCode.RateLimited),
  );
}

/**
 * Nothing of a rule is worked out per request: the readers come with the decorator, the allowance
 * and its header value with the handler's first request (HandlerMetadata keeps them).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly rules: HandlerMetadata<ResolvedRule | undefined>;

  constructor(
    reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.rules = new HandlerMetadata((handler) => {
      const rule = reflector.get<RateLimitRule | undefined>(RATE_LIMIT, handler);
      if (!rule) return undefined;
      const limit = limits.limitOf(rule.policy);
      return { ...rule, limit, limitHeader: String(limit) };
    });
  }

  /** Synchronous while the counters are in memory; a promise only for a count in Redis. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const rule = this.rules.of(context);
    if (!rule) return true;
    // An HTTP route's arguments are (request, response): what switchToHttp() reads, without the
    // three closures it makes on each call.
    const req = context.getArgByIndex<HttpRequest>(0);
    return this.countFrom(rule, 0, req, context.getArgByIndex<unknown>(1));
  }

  private countFrom(
    rule: ResolvedRule,
    first: number,
    req: HttpRequest,
    res: unknown,
  ): boolean | Promise<boolean> {
    for (let i = first; i < rule.readers.length; i++) {
      const { key, tracker: read } = rule.readers[i];
      const tracker = read(req);
      if (tracker === undefined) continue;
      const record = this.limits.hit(rule.policy, key, tracker);
      if (record instanceof Promise) {
        return record.then((r) => {
          this.answer(rule, res, r);
          return this.countFrom(rule, i + 1, req, res);
        });
      }
      this.answer(rule, res, record);
    }
    return true;
  }

  /** The limit headers of this count; 429 when it is over. */
  private answer(rule: ResolvedRule, res: unknown, record: ThrottlerStorageRecord): void {
    const http = this.adapterHost.httpAdapter;
    http.setHeader(res, 'RateLimit-Limit', rule.limitHeader);
    http.setHeader(res, 'RateLimit-Remaining', String(Math.max(0, rule.limit - record.totalHits)));
    if (record.isBlocked) throw rateLimited(record.timeToBlockExpire);
  }
}

function trackerReader(key: RateLimitKey): KeyReader['tracker'] {
  if (key === 'ip') return (req) => addressGroup(req.ip);
  const field = key.slice('body.'.length);
  return (req) => {
    const body: unknown = req.body;
    const value =
      typeof body === 'object' && body !== null
        ? (body as Record<string, unknown>)[field]
        : undefined;
    return typeof value === 'string' && value.length > 0 ? value.slice(0, 256) : undefined;
  };
}
