import type { Request, Response } from 'express';
import { mountedAt } from './mounted-at';

describe('mountedAt', () => {
  /** What the handler saw (or null when it did not run), and req.url after the step. */
  function run(url: string): { seen: [string, string] | null; after: string } {
    const req = { url, baseUrl: '' } as Request;
    let seen: [string, string] | null = null;
    const step = mountedAt('/plans/assets', (r, _res, next) => {
      seen = [r.url, r.baseUrl];
      next();
    });
    step(req, {} as Response, () => undefined);
    return { seen, after: req.url };
  }

  it('runs the handler below the prefix, without it, and puts the URL back', () => {
    expect(run('/plans/assets/plans.js?v=1')).toEqual({
      seen: ['/plans.js?v=1', '/plans/assets'],
      after: '/plans/assets/plans.js?v=1',
    });
    expect(run('/plans/assets').seen).toEqual(['/', '/plans/assets']);
    expect(run('/plans/assets/').seen).toEqual(['/', '/plans/assets']);
    expect(run('/plans/assets?x').seen).toEqual(['/?x', '/plans/assets']);
    expect(run('http://host/plans/assets/a.js').seen).toEqual([
      'http://host/a.js',
      '/plans/assets',
    ]);
  });

  it('passes by other paths, another case or a longer segment', () => {
    for (const url of ['/api/v1/me', '/plans', '/plans/assetsx/a.js', '/PLANS/assets/a.js']) {
      expect(run(url)).toEqual({ seen: null, after: url });
    }
  });

  it('puts the URL back when the handler throws, for the error handler', () => {
    const req = { url: '/plans/assets/a.js', baseUrl: '' } as Request;
    const step = mountedAt('/plans/assets', () => {
      throw new Error('broken');
    });
    expect(() => step(req, {} as Response, () => undefined)).toThrow('broken');
    expect([req.url, req.baseUrl]).toEqual(['/plans/assets/a.js', '']);
  });
});
