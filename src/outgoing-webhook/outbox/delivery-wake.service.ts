import { Injectable } from '@nestjs/common';
import { outsideRequest } from '../../common/logging/request-context';

/**
 * Tells this process's delivery worker that deliveries were just committed, so the first attempt
 * starts at once; other instances find them on their next poll.
 */
@Injectable()
export class DeliveryWake {
  private readonly listeners = new Set<() => void>();

  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    // The worker's pass outlives the request that committed: its lines and timers are not that
    // request's (its id, its address, the request kept alive by them).
    outsideRequest(() => {
      for (const listener of this.listeners) listener();
    });
  }
}
