import { Injectable } from '@nestjs/common';

/**
 * The current time, injected wherever an expiry is decided, so tests can move time forward
 * without faking timers for the whole process.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
