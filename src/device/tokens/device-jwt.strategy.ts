import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Jwt } from 'jsonwebtoken';
import { Strategy } from 'passport-jwt';
import { Clock } from '../../common/clock/clock';
import { bearerToken } from '../../common/http/bearer-token';
import type { HttpRequest } from '../../common/http/http-request';
import { AppConfig } from '../../config/app-config';
import { DEVICE_TOKEN_ALGORITHM, DEVICE_TOKEN_AUDIENCE, deviceClaimsOf } from './device-token.jwt';
import { Device } from '../device.entity';
import { DeviceService } from '../registry/device.service';

export const DEVICE_JWT_STRATEGY = 'device-jwt';

/**
 * The device bearer (`Authorization: Bearer <token>` only: never a cookie or the URL): passport-jwt
 * checks the signature, `alg` and `aud`; validate() then checks `typ`, the claims and `exp`/`nbf`
 * against the Clock, and the device must still be active in the token's organization and still
 * hold the key the token was issued under, or none (a new key ends it). Any refusal is `false`; DeviceBearerGuard answers
 * it. A fault (the database is away) is thrown and reaches the client as itself.
 */
@Injectable()
export class DeviceJwtStrategy extends PassportStrategy(Strategy, DEVICE_JWT_STRATEGY) {
  constructor(
    config: AppConfig,
    private readonly clock: Clock,
    private readonly devices: DeviceService,
  ) {
    super({
      jwtFromRequest: (req: HttpRequest) => bearerToken(req.headers.authorization) ?? null,
      // The secret in a form passport-jwt documents (string or Buffer). On each check jsonwebtoken
      // tries it as a PEM public key, then builds a secret key from it; a key object would skip
      // both, but passport-jwt documents none. Text fails the PEM try sooner than a Buffer.
      secretOrKey: config.deviceToken.secretText,
      algorithms: [DEVICE_TOKEN_ALGORITHM],
      audience: DEVICE_TOKEN_AUDIENCE,
      // jsonwebtoken would judge `exp` and `nbf` by the machine's time: validate() judges them
      // by the Clock. `complete` hands the header to deviceClaimsOf, which checks `typ`.
      ignoreExpiration: true,
      jsonWebTokenOptions: { ignoreNotBefore: true, complete: true },
    });
  }

  async validate(decoded: Jwt): Promise<Device | false> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const claims = deviceClaimsOf(decoded, now);
    const device = claims ? await this.devices.findActive(claims.deviceId, claims.orgId) : null;
    // A token carries the key its device held when it was issued (none, or its thumbprint):
    // setting a first key or rotating one ends the tokens issued before.
    if (!device || !claims || (claims.jkt ?? null) !== (device.publicKeyThumbprint ?? null)) {
      return false;
    }
    return device;
  }
}
