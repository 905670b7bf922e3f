import { applyDecorators, HttpStatus, Injectable, UseGuards } from '@nestjs/common';
import { AuthGuard, IAuthModuleOptions } from '@nestjs/passport';
import { ApiBearerAuth, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AppException } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { DEVICE_JWT_STRATEGY } from './device-jwt.strategy';
import { Device } from './device.entity';

/** Where the guard puts the device: not `req.user`, which belongs to people's sessions. */
export const DEVICE_REQUEST_PROPERTY = 'device';

/** Lets a request through only with a valid device bearer token (see DeviceJwtStrategy). */
@Injectable()
export class DeviceBearerGuard extends AuthGuard(DEVICE_JWT_STRATEGY) {
  override getAuthenticateOptions(): IAuthModuleOptions {
    return { session: false, property: DEVICE_REQUEST_PROPERTY };
  }

  // Every token failure (none, malformed, bad signature, expired, wrong type, device gone) is one
  // answer. An error is not a verdict on the token (the database is away): it stays an error.
  override handleRequest<TDevice = Device>(err: unknown, device: TDevice | false): TDevice {
    if (err instanceof Error) throw err;
    if (err) throw new Error('Device token check failed');
    if (!device) {
      throw new AppException(
        ErrorCode.Unauthenticated,
        HttpStatus.UNAUTHORIZED,
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
    ApiUnauthorizedResponse({ description: 'Missing, invalid, expired or revoked device token' }),
  );
}
