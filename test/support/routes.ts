import type { TestApp } from './test-app';

interface RouteLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/**
 * The API's routes as [METHOD, path]: tests iterate what Express's router holds, not a list of
 * ours. Left out: wildcard paths (nestjs-pino's middleware, static and docs assets).
 */
export function routes(t: TestApp): [string, string][] {
  const express = t.app.getHttpAdapter().getInstance() as unknown as {
    router: { stack: RouteLayer[] };
  };
  return express.router.stack.flatMap(({ route }) => {
    if (!route) return [];
    return [route.path]
      .flat()
      .filter((path) => !path.includes('*'))
      .flatMap((path) =>
        Object.keys(route.methods)
          .filter((m) => m !== '_all')
          .map((m): [string, string] => [m.toUpperCase(), path]),
      );
  });
}
