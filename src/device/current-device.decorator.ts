import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DEVICE_REQUEST_PROPERTY } from './device-bearer.guard';
import { Device } from './device.entity';

/** The device authenticated by DeviceBearerGuard. */
export const CurrentDevice = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<Request & { [DEVICE_REQUEST_PROPERTY]?: Device }>();
  return req[DEVICE_REQUEST_PROPERTY];
});
