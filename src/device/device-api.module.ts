import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { DeviceAuthController } from './device-auth.controller';
import { DeviceController } from './device.controller';
import { DeviceJwtStrategy } from './device-jwt.strategy';
import { DeviceSelfController } from './device-self.controller';
import { DeviceTokenService } from './device-token.service';
import { DeviceModule } from './device.module';

/** The device routes: token exchange, device-scoped operations and the org's device list. */
@Module({
  imports: [DeviceModule, PassportModule],
  controllers: [DeviceAuthController, DeviceSelfController, DeviceController],
  providers: [DeviceTokenService, DeviceJwtStrategy],
})
export class DeviceApiModule {}
