import type { TestApp } from './test-app';

/**
 * The API's routes as [METHOD, path]: tests iterate what the server registered, not a list of
 * ours. Left out: the HEAD twins Fastify adds for GET routes, and static-file wildcards.
 */
export function routes(t: TestApp): [string, string][] {
  return t.routes.filter(([method, path]) => method !== 'HEAD' && !path.includes('*'));
}
