import { parseArgs } from 'node:util';
import { AppConfig } from '../src/config/app-config';
import { devIdpAppConfig } from '../src/config/dev-idp-config';
import { signInWithCodeFlow } from './code-flow';
import { consoleClient, DEFAULT_CONSOLE_CLIENT_ID } from './console-client';

/** Loaded only to serve: `token` needs no provider (and oidc-provider takes a while to load). */
function provider(): typeof import('./provider') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  return require('./provider') as typeof import('./provider');
}

const DEFAULT_PORT = 4400;
const DEFAULT_CLIENT_ID = 'device-care-dev';
const USAGE = `Usage:
  npm run dev:idp [-- --port N] [--client-id ID] [--redirect-uri URL ...]
      starts the development OpenID Connect provider on 127.0.0.1
  npm run -s dev:idp -- token EMAIL [--unverified]
      signs EMAIL in through the running provider (code flow + PKCE) and prints the ID token

Defaults come from the service's own settings: OIDC_ISSUER (when it is http://127.0.0.1:PORT or
http://localhost:PORT) and the first OIDC_AUDIENCE; otherwise port ${DEFAULT_PORT}, client ${DEFAULT_CLIENT_ID}.
The operators' console is a second client: CONSOLE_OIDC_CLIENT_ID (default ${DEFAULT_CONSOLE_CLIENT_ID}),
redirected to {BASE_URL}/console/callback.
Refuses NODE_ENV=production.`;

/** The loopback issuer OIDC_ISSUER names, if it names one: then this provider is the one trusted. */
function configuredLoopback(config: AppConfig): URL | undefined {
  const first = config.oidc.issuers[0];
  if (!first) return undefined;
  try {
    const url = new URL(first);
    const loopback = ['127.0.0.1', 'localhost'].includes(url.hostname);
    return loopback && url.protocol === 'http:' && url.port && url.pathname === '/'
      ? url
      : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'client-id': { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      unverified: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return console.log(USAGE);
  const config = devIdpAppConfig();
  const trusted = configuredLoopback(config);
  const port =
    values.port !== undefined ? Number(values.port) : Number(trusted?.port ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: ${values.port}`);
  const host = trusted?.hostname === 'localhost' ? 'localhost' : '127.0.0.1';
  const consoleId = config.oidc.consoleClientId ?? DEFAULT_CONSOLE_CLIENT_ID;
  // The service's own client: its first audience that is not the console's.
  const audience = config.oidc.audiences.find((a) => a !== consoleId);
  const clientId = values['client-id'] ?? (trusted ? audience : undefined) ?? DEFAULT_CLIENT_ID;
  if (clientId === consoleId) throw new Error(`--client-id: ${consoleId} is the console's client`);

  if (positionals[0] === 'token') {
    const email = positionals[1];
    if (!email) throw new Error('token: give the email to sign in, e.g. token you@example.com');
    const issuer = `http://${host}:${port}`;
    const idToken = await signInWithCodeFlow(
      { issuer, clientId, redirectUri: `${issuer}/callback` },
      email,
      { verified: !values.unverified },
    );
    return console.log(idToken);
  }
  if (positionals.length > 0) throw new Error(`unknown command ${positionals[0]}\n${USAGE}`);

  const idp = await provider().startDevIdp({
    port,
    host,
    clientId,
    redirectUris: values['redirect-uri'] ?? [],
    serviceUrl: config.baseUrl,
    console: consoleClient(consoleId, config.baseUrl, config.corsOrigins),
  });
  console.log(`Development identity provider: ${idp.issuer} (client_id ${clientId})`);
  console.log(`  the console's client:  ${consoleId} (${config.baseUrl}/console/callback)`);
  console.log(`  sign in in a browser:  ${idp.issuer}/`);
  console.log(`  or from a terminal:    npm run -s dev:idp -- token you@example.com`);
  const wanted = `OIDC_ISSUER=${idp.issuer} OIDC_AUDIENCE=${clientId}`;
  if (config.oidc.issuers[0] !== idp.issuer || !config.oidc.audiences.includes(clientId)) {
    console.log(
      `The service does not trust it yet: set ${wanted} (in .env) and restart the service.`,
    );
  }
  if (config.oidc.consoleClientId !== consoleId) {
    console.log(`The console signs in once CONSOLE_OIDC_CLIENT_ID=${consoleId} is set too.`);
  }
  const stop = () => void idp.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
