import type { Request, Response } from 'express';

/**
 * One step of the request's front: answers, fails (`next(err)`), or hands on (`next()`). What it
 * returns is looked at only for a promise, whose rejection fails the request (as Express 5 does).
 */
export type Step = (req: Request, res: Response, next: (err?: unknown) => void) => unknown;

/**
 * The steps as one Express middleware, run in order: a step that answers ends the chain (it never
 * calls `next`), an error skips the rest and goes to Express's `next(err)` (Nest's exception
 * filter), and the last step's `next()` hands on to the routes. A step may call `next` later (the
 * body parsers do) or inside something that wraps the rest (the request context's
 * AsyncLocalStorage.run), as between Express layers.
 *
 * Why not one Express layer per step: Express's router allocates about 1 KB per layer a request
 * passes and matches each one's path, which was the largest allocator of a cheap request after
 * Nest itself (`me`: 9.9 KB a request above the bare app; docs/development.md).
 */
export function middlewareChain(steps: readonly Step[]): Step {
  return (req, res, done) => {
    let index = 0;
    const next = (err?: unknown): void => {
      if (err) return done(err);
      const step = steps[index++];
      if (step === undefined) return done();
      // As Express's layer does: a step that throws, or whose promise rejects, has failed.
      try {
        const pending = step(req, res, next);
        if (pending instanceof Promise) pending.catch(done);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
