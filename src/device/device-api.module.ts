import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeviceAssertionVerifier } from './tokens/device-assertion.verifier';
import { DeviceAuthController } from './tokens/device-auth.controller';
import { DeviceController } from './registry/device.controller';
import { DeviceSelfController } from './liveness/device-self.controller';
import { DeviceJwtStrategy } from './tokens/device-jwt.strategy';
import { DeviceTokenService } from './tokens/device-token.service';
import { Device } from './device.entity';
import { DeviceModule } from './device.module';
import { DeviceLivenessScheduler } from './liveness/device-liveness.scheduler';

/**
 * The device routes: token exchange, device-scoped operations (the `device-jwt` Passport strategy)
 * and the org's device list; the liveness pass's timer (server only).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Device]), DeviceModule],
  controllers: [DeviceAuthController, DeviceSelfController, DeviceController],
  providers: [
    DeviceTokenService,
    DeviceAssertionVerifier,
    DeviceJwtStrategy,
    DeviceLivenessScheduler,
  ],
})
export class DeviceApiModule {}
