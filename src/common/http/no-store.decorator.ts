import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Observable } from 'rxjs';

/** Sets the header before the handler runs, so its errors leave with it too. */
@Injectable()
export class NoStoreInterceptor implements NestInterceptor {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res: unknown = context.switchToHttp().getResponse();
    this.adapterHost.httpAdapter.setHeader(res, 'Cache-Control', 'no-store');
    return next.handle();
  }
}

/**
 * On a controller or a route whose answers carry personal data or a secret (emails, names,
 * sessions' addresses, care data, a webhook secret): `Cache-Control: no-store`, whatever the
 * security headers' default becomes (contract section 11). A refusal by a guard, before the route
 * runs, keeps that default (`no-store` for the API, common/http/security-headers.ts).
 */
export const NoStore = (): ClassDecorator & MethodDecorator =>
  applyDecorators(UseInterceptors(NoStoreInterceptor));
