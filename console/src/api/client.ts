import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

/** The API's shapes, by their names in the OpenAPI document. */
export type Schemas = components['schemas'];

/**
 * The one client of the service's API, typed from its OpenAPI document (generated at build time:
 * an API change that breaks a call here breaks `npm run build`). Same origin, so the session
 * cookie goes with every call and the browser sends its own Origin and Sec-Fetch-Site.
 */
export const api = createClient<paths>({ credentials: 'same-origin' });

let onUnauthenticated: (() => void) | undefined;

/** Who hears that a call answered 401: the session, which returns to sign-in once. */
export function whenUnauthenticated(listener: () => void): void {
  onUnauthenticated = listener;
}

const sessionWatch: Middleware = {
  onResponse({ request, response }) {
    // /api/auth/me answers 401 to a visitor with no session: that is the question, not the news.
    if (response.status === 401 && !request.url.endsWith('/api/auth/me')) onUnauthenticated?.();
    return undefined;
  },
};
api.use(sessionWatch);
