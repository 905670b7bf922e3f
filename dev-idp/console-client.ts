import type { ClientMetadata } from 'oidc-provider';

/** The console's client id when CONSOLE_OIDC_CLIENT_ID is unset (the README sets it). */
export const DEFAULT_CONSOLE_CLIENT_ID = 'device-care-console';

/** The operators' console as a client of the development provider (contract section 11). */
export interface ConsoleClient {
  clientId: string;
  /** `{BASE_URL}/console/callback`, in both loopback spellings when BASE_URL is one. */
  redirectUris: string[];
  /** `{BASE_URL}/console/`, likewise. */
  postLogoutRedirectUris: string[];
  /** Where the console runs: its browser may call discovery, the keys and the token endpoint. */
  origins: string[];
}

const LOOPBACK_TWIN: Record<string, string> = { localhost: '127.0.0.1', '127.0.0.1': 'localhost' };

/** The URL, and the same with the other loopback spelling when it is localhost or 127.0.0.1. */
function spellings(url: URL): URL[] {
  const twin = LOOPBACK_TWIN[url.hostname];
  if (!twin) return [url];
  const other = new URL(url);
  other.hostname = twin;
  return [url, other];
}

/**
 * The console's registration, from the service's BASE_URL and CORS_ORIGINS (the console is served
 * by the service itself, at `{BASE_URL}/console/`).
 */
export function consoleClient(
  clientId: string,
  serviceUrl: string,
  corsOrigins: string[],
): ConsoleClient {
  const bases = spellings(new URL(serviceUrl)).map((u) => u.href.replace(/\/+$/, ''));
  const origins = [...corsOrigins, ...bases].flatMap((o) => spellings(new URL(o)));
  return {
    clientId,
    redirectUris: bases.map((b) => `${b}/console/callback`),
    postLogoutRedirectUris: bases.map((b) => `${b}/console/`),
    origins: [...new Set(origins.map((u) => u.origin))],
  };
}

/** A public client in a browser: no secret, PKCE (the provider's `pkce.required`), code only. */
export function consoleClientMetadata(client: ConsoleClient): ClientMetadata {
  return {
    client_id: client.clientId,
    client_name: 'Device-care operators’ console (development)',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
  };
}
