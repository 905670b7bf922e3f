import type { Request, Response } from 'express';
import { middlewareChain, Step } from './middleware-chain';

describe('middlewareChain', () => {
  const req = {} as Request;
  const res = {} as Response;
  const passes =
    (name: string, seen: string[]): Step =>
    (_req, _res, next) => {
      seen.push(name);
      next();
    };

  it('runs the steps in order and hands on once, after the last', () => {
    const seen: string[] = [];
    const done = jest.fn();
    middlewareChain([passes('a', seen), passes('b', seen)])(req, res, done);
    expect(seen).toEqual(['a', 'b']);
    expect(done).toHaveBeenCalledTimes(1);
    expect(done).toHaveBeenCalledWith();
  });

  it('stops where a step answers (never calls next)', () => {
    const seen: string[] = [];
    const done = jest.fn();
    middlewareChain([passes('a', seen), () => undefined, passes('c', seen)])(req, res, done);
    expect(seen).toEqual(['a']);
    expect(done).not.toHaveBeenCalled();
  });

  it("skips the rest on an error, passed or thrown, and hands it to Express's next", () => {
    const seen: string[] = [];
    const failure = new Error('refused');
    const done = jest.fn();
    middlewareChain([(_q, _s, next) => next(failure), passes('b', seen)])(req, res, done);
    const thrown = jest.fn();
    const boom: Step = () => {
      throw failure;
    };
    middlewareChain([boom, passes('b', seen)])(req, res, thrown);
    expect(seen).toEqual([]);
    expect(done).toHaveBeenCalledWith(failure);
    expect(thrown).toHaveBeenCalledWith(failure);
  });

  it('goes on when a step calls next later', async () => {
    const seen: string[] = [];
    const later: Step = (_req, _res, next) => void setImmediate(next);
    await new Promise<void>((resolve) =>
      middlewareChain([later, passes('b', seen)])(req, res, () => resolve()),
    );
    expect(seen).toEqual(['b']);
  });

  it("fails the request when an async step's promise rejects, not the process", async () => {
    const failure = new Error('async refusal');
    const seen: string[] = [];
    const rejects: Step = () => Promise.reject(failure);
    const handed = await new Promise<unknown>((resolve) =>
      middlewareChain([rejects, passes('b', seen)])(req, res, resolve),
    );
    expect(handed).toBe(failure);
    expect(seen).toEqual([]);
  });
});
