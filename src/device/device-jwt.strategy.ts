import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Jwt } from 'jsonwebtoken';
import { Strategy } from 'passport-jwt';
import { Clock } from '../common/clock/clock';
import { bearerToken } from '../common/http/bearer-token';
import type { HttpRequest } from '../common/http/http-request';
import { AppConfig } from '../config/app-config';
import { DEVICE_TOKEN_ALGORITHM, DEVICE_TOKEN_AUDIENCE, deviceClaimsOf } from './device-token.jwt';
import { Device } from './device.entity';
import { DeviceService } from './device.service';

export const DEVICE_JWT_STRATEGY = 'device-jwt';

/**
 * The device bearer (`Authorization: Bearer <token>` only: never a cookie or the URL): passport-jwt
 * checks the signature, `alg`, `aud` and expiry against the Clock; then `typ` and the claims, and
 * the device must still be active in the token's organization and still hold the key the token
 * was issued under, or none (a new key ends it). Any refusal is `false`; DeviceBearerGuard answers
 * it. A fault (the database is away) is thrown and reaches the client as itself.
 */
@Injectable()
export class DeviceJwtStrategy extends PassportStrategy(Strategy, DEVICE_JWT_STRATEGY) {
  constructor(
    config: AppConfig,
    clock: Clock,
    private readonly devices: DeviceService,
  ) {
    super({
      jwtFromRequest: (req: HttpRequest) => bearerToken(req.headers.authorization) ?? null,
      // A KeyObject, though typed string | Buffer: jsonwebtoken takes it as is, where a Buffer
      // costs a failed public-key parse and a new secret key on every request.
      secretOrKey: config.deviceToken.secret as unknown as Buffer,
      algorithms: [DEVICE_TOKEN_ALGORITHM],
      audience: DEVICE_TOKEN_AUDIENCE,
      // `exp` and `nbf` without tolerance, as before; `complete` hands the header to
      // deviceClaimsOf, which checks `typ` (jsonwebtoken does not).
      jsonWebTokenOptions: { clockTolerance: 0, complete: true },
    });
    readClockOnEachVerify(this, clock);
  }

  async validate(decoded: Jwt): Promise<Device | false> {
    const claims = deviceClaimsOf(decoded);
    const device = claims ? await this.devices.findActive(claims.deviceId, claims.orgId) : null;
    // A token carries the key its device held when it was issued (none, or its thumbprint):
    // setting a first key or rotating one ends the tokens issued before.
    if (!device || !claims || (claims.jkt ?? null) !== (device.publicKeyThumbprint ?? null)) {
      return false;
    }
    return device;
  }
}

/**
 * jsonwebtoken's `clockTimestamp` as a getter on the Clock. passport-jwt copies its options once,
 * at construction, into `_verifOpts`, and hands that object to jsonwebtoken on each request, which
 * copies it with Object.assign (calling the getter): each verification reads the Clock then.
 * `_verifOpts` is passport-jwt's own field; device-bearer.guard.spec.ts moves the Clock to prove it.
 */
function readClockOnEachVerify(strategy: object, clock: Clock): void {
  const options = (strategy as { _verifOpts?: object })._verifOpts;
  if (!options) throw new Error('passport-jwt keeps no _verifOpts: the Clock cannot reach it');
  Object.defineProperty(options, 'clockTimestamp', {
    enumerable: true,
    get: () => Math.floor(clock.now().getTime() / 1000),
  });
}
