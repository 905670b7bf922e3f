import { applyDecorators, Injectable, UseGuards } from '@nestjs/common';
import { AuthGuard, type AuthGuardAuthenticateOptions } from '@nestjs/passport';
import { ApiBearerAuth } from '@nestjs/swagger';
import { DeviceError } from '../device.error';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { ApiProblems } from '../../common/openapi/api-problems.decorator';
import { DEVICE_JWT_STRATEGY } from './device-jwt.strategy';
import type { Device } from '../device.entity';

/** Where the guard puts the device: not `req.user`, which belongs to people's sessions. */
export const DEVICE_REQUEST_PROPERTY = 'device';

/** No session: the token is checked on every request. */
const AUTHENTICATE_OPTIONS: AuthGuardAuthenticateOptions = {
  session: false,
  property: DEVICE_REQUEST_PROPERTY,
};

/**
 * Lets a request through only with a valid device bearer token (the `device-jwt` strategy,
 * DeviceJwtStrategy). Every refusal is one answer, the problem details of `unauthenticated` with
 * `WWW-Authenticate`, never Passport's own 401; an error that is not a verdict on the token (the
 * database is away) propagates as itself.
 */
@Injectable()
export class DeviceBearerGuard extends AuthGuard(DEVICE_JWT_STRATEGY) {
  override getAuthenticateOptions(): AuthGuardAuthenticateOptions {
    return AUTHENTICATE_OPTIONS;
  }

  override handleRequest<TDevice = Device>(err: Error | null, device: TDevice | false): TDevice {
    if (err) throw err;
    if (!device) {
      throw new DeviceError(
        ErrorCode.Unauthenticated,
        'A valid device bearer token is required.',
        undefined,
        { 'WWW-Authenticate': 'Bearer realm="device"' },
      );
    }
    return device;
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
