import { Injectable } from '@nestjs/common';

/** Told of each device token issued, by the device's `device_id`, before the answer is sent. */
export type DeviceTokenListener = (deviceId: string) => Promise<void>;

/**
 * The token exchange's listeners: a shipped device's first token activates its subscription
 * there. A listener, because device/ sits below subscription/ (ARCHITECTURE.md) and must not
 * import it; subscription/ registers when its module loads.
 */
@Injectable()
export class DeviceTokenEvents {
  private readonly listeners: DeviceTokenListener[] = [];

  onTokenIssued(listener: DeviceTokenListener): void {
    this.listeners.push(listener);
  }

  /** Each listener in turn, awaited, in the order they registered. */
  async tokenIssued(deviceId: string): Promise<void> {
    for (const listener of this.listeners) await listener(deviceId);
  }
}
