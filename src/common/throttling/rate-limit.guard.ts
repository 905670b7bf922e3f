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
import { addressGroup } from './client-address';
import { RateLimitPolicy, rateLimited, RateLimitService } from './rate-limit.service';

/** What a limit counts by: the client address (under TRUST_PROXY; IPv6 by /64) or a body field. */
export type RateLimitKey = 'ip' | `body.${string}`;

interface RateLimitRule {
  policy: RateLimitPolicy;
  keys: RateLimitKey[];
}

const RATE_LIMIT = Symbol('rate-limit');

/** Limits a route to the policy's allowance per minute, counted separately for each key. */
export function RateLimit(policy: RateLimitPolicy, keys: RateLimitKey[] = ['ip']) {
  return applyDecorators(
    SetMetadata(RATE_LIMIT, { policy, keys } satisfies RateLimitRule),
    UseGuards(RateLimitGuard),
    ApiProblems(ErrorCode.RateLimited),
  );
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly rules: HandlerMetadata<RateLimitRule | undefined>;

  constructor(
    reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.rules = new HandlerMetadata((handler) =>
      reflector.get<RateLimitRule | undefined>(RATE_LIMIT, handler),
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.rules.of(context);
    if (!rule) return true;
    const req = context.switchToHttp().getRequest<HttpRequest>();
    const res: unknown = context.switchToHttp().getResponse();
    const http = this.adapterHost.httpAdapter;
    const limit = this.limits.limitOf(rule.policy);
    for (const key of rule.keys) {
      const tracker = this.trackerFor(req, key);
      if (tracker === undefined) continue;
      const record = await this.limits.hit(rule.policy, key, tracker);
      http.setHeader(res, 'RateLimit-Limit', String(limit));
      http.setHeader(res, 'RateLimit-Remaining', String(Math.max(0, limit - record.totalHits)));
      if (record.isBlocked) throw rateLimited(record.timeToBlockExpire);
    }
    return true;
  }

  private trackerFor(req: HttpRequest, key: RateLimitKey): string | undefined {
    if (key === 'ip') return addressGroup(req.ip);
    const body: unknown = req.body;
    const value =
      typeof body === 'object' && body !== null
        ? (body as Record<string, unknown>)[key.slice('body.'.length)]
        : undefined;
    return typeof value === 'string' && value.length > 0 ? value.slice(0, 256) : undefined;
  }
}
