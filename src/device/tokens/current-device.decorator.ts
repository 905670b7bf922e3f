import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { DEVICE_REQUEST_PROPERTY } from './device-bearer.guard';
import { Device } from '../device.entity';

/** The device authenticated by DeviceBearerGuard (the `device-jwt` strategy). */
export const CurrentDevice = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<{ [DEVICE_REQUEST_PROPERTY]?: Device }>();
  return req[DEVICE_REQUEST_PROPERTY];
});
