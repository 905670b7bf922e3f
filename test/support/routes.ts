import type { TestApp } from './test-app';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route Express knows, as [METHOD, path]: tests iterate the router, not a list of ours. */
export function routes(t: TestApp): [string, string][] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods).map((m): [string, string] => [
          m.toUpperCase(),
          layer.route!.path,
        ])
      : [],
  );
}
