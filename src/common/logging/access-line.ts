import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/** Fields a handler adds to its request's access line (and to any line the request logs after). */
export interface AccessLine {
  add(fields: Record<string, unknown>): void;
}

/**
 * What the request did, on its one access line: the fields go to pino-http's logger for the
 * request (`res.log`, which is also `req.log`, the logger of the request's own lines), as bindings.
 * Not nestjs-pino's `PinoLogger.assign`, which sets the same bindings and also makes a child of
 * that logger for the request's later lines: the child makes the request's logger a prototype,
 * which V8 pays for (the fields, child and access line cost 9.5-10.3 µs per request with assign,
 * 3.3-3.5 µs without, measured in isolation; docs/development.md). The later lines get the fields
 * here too: the logger they use is this one.
 */
export const RequestAccessLine = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AccessLine => {
    const res = context.switchToHttp().getResponse<ServerResponse>();
    return {
      add: (fields) => {
        // Without pino-http in front (a bare test app) there is no access line to add to.
        res.log?.setBindings(fields);
      },
    };
  },
);
