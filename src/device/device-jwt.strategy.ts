import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Jwt, JwtPayload } from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../config/app-config';
import {
  DEVICE_TOKEN_ALGORITHM,
  DEVICE_TOKEN_AUDIENCE,
  DEVICE_TOKEN_TYPE,
} from './device-token.service';
import { Device } from './device.entity';
import { DeviceService } from './device.service';

export const DEVICE_JWT_STRATEGY = 'device-jwt';

/**
 * Verifies a device bearer token: HS256 signature with the server's key, `aud` = device, expiry,
 * the `device+jwt` header type (so no other JWT of ours passes), and that the device is still
 * active. The token is read from the Authorization header only, never from a cookie or the URL.
 */
@Injectable()
export class DeviceJwtStrategy extends PassportStrategy(Strategy, DEVICE_JWT_STRATEGY) {
  constructor(
    config: AppConfig,
    private readonly devices: DeviceService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // @types/passport-jwt says string | Buffer; jsonwebtoken 9 verifies with a KeyObject as well.
      secretOrKey: config.deviceToken.secret as unknown as Buffer,
      algorithms: [DEVICE_TOKEN_ALGORITHM],
      audience: DEVICE_TOKEN_AUDIENCE,
      ignoreExpiration: false,
      // The whole token, so validate() can check the header's typ too.
      jsonWebTokenOptions: { complete: true },
    });
  }

  async validate(token: Jwt): Promise<Device | false> {
    const payload: JwtPayload | string = token.payload;
    if (token.header.typ !== DEVICE_TOKEN_TYPE || typeof payload === 'string') return false;
    const { sub, exp, jti } = payload;
    const orgId: unknown = payload.org_id;
    const complete =
      typeof exp === 'number' && typeof jti === 'string' && typeof orgId === 'string';
    if (!complete || typeof sub !== 'string') return false;
    return (await this.devices.findActive(sub, orgId)) ?? false;
  }
}
