import type { Request, Response } from 'express';
import { currentRequest, outsideRequest, requestContext } from './request-context';

describe('request context', () => {
  const req = { url: '/api/auth/me' } as Request;

  it('is the request for the rest of it, also across awaits and timers', async () => {
    const seen = await new Promise<unknown[]>((resolve) => {
      void requestContext()(req, {} as Response, () => {
        const now = currentRequest();
        setTimeout(() => void Promise.resolve().then(() => resolve([now, currentRequest()])), 1);
      });
    });
    expect(seen).toEqual([req, req]);
    expect(currentRequest()).toBeUndefined();
  });

  it('is none for work started with outsideRequest, and its timers', async () => {
    const seen = await new Promise<unknown[]>((resolve) => {
      void requestContext()(req, {} as Response, () => {
        outsideRequest(() => setTimeout(() => resolve([currentRequest()]), 1));
      });
    });
    expect(seen).toEqual([undefined]);
  });
});
