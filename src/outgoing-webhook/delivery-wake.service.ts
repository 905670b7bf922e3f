import { Injectable } from '@nestjs/common';

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
    for (const listener of this.listeners) listener();
  }
}
