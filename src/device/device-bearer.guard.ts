import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { DeviceError } from './device.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { ApiProblems } from '../common/openapi/api-problems.decorator';
import type { HttpRequest } from '../common/http/http-request';
import { DeviceTokenService } from './device-token.service';
import { Device } from './device.entity';
import { DeviceService } from './device.service';
import { bearerToken } from '../common/http/bearer-token';

/** Where the guard puts the device: not `req.user`, which belongs to people's sessions. */
export const DEVICE_REQUEST_PROPERTY = 'device';

/**
 * Lets a request through only with a valid device bearer token: signature, `alg`, `typ`, `aud` and
 * expiry (DeviceTokenService.verify, jose), then the device must still be active in the token's
 * organization and still hold the key the token was issued under, or none (a new key ends it).
 *
 * A Nest guard rather than a Passport strategy: there is one stateless scheme and no session, so
 * Passport would only add a callback layer and an error-or-false convention around one await.
 */
@Injectable()
export class DeviceBearerGuard implements CanActivate {
  constructor(
    private readonly tokens: DeviceTokenService,
    private readonly devices: DeviceService,
  ) {}

  // Every token failure is one answer; an error that is not a verdict on the token (the database
  // is away) propagates as itself.
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context
      .switchToHttp()
      .getRequest<HttpRequest & { [DEVICE_REQUEST_PROPERTY]?: Device }>();
    // `Authorization: Bearer <token>` only: never a cookie or the URL.
    const token = bearerToken(req.headers.authorization);
    const claims = token === undefined ? null : await this.tokens.verify(token);
    const device = claims ? await this.devices.findActive(claims.deviceId, claims.orgId) : null;
    // A token carries the key its device held when it was issued (none, or its thumbprint): setting
    // a first key or rotating one ends the tokens issued before.
    if (!device || !claims || (claims.jkt ?? null) !== (device.publicKeyThumbprint ?? null)) {
      throw new DeviceError(
        ErrorCode.Unauthenticated,
        'A valid device bearer token is required.',
        undefined,
        { 'WWW-Authenticate': 'Bearer realm="device"' },
      );
    }
    req[DEVICE_REQUEST_PROPERTY] = device;
    return true;
  }
}

/** Marks a route as device-scoped: bearer token required, documented as such. */
export function DeviceAuth() {
  return applyDecorators(
    UseGuards(DeviceBearerGuard),
    ApiBearerAuth('device'),
    // The device is read from the database on every request: 503 while it is away.
    ApiProblems(ErrorCode.Unauthenticated, ErrorCode.Unavailable),
  );
}
