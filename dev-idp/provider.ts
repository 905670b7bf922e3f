import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type JWK } from 'oidc-provider';
import {
  authorizationRequest,
  AuthorizationRequest,
  completeSignIn,
  PublicClient,
} from './code-flow';
import { ConsoleClient, consoleClientMetadata } from './console-client';
import { errorPage, homePage, idTokenPage, signInPage } from './pages';

export interface DevIdpOptions {
  /** 0: any free port (the tests). */
  port: number;
  /** How the issuer spells the loopback host; the server listens on 127.0.0.1 either way. */
  host: '127.0.0.1' | 'localhost';
  clientId: string;
  /** More redirect URIs for the client, e.g. a dashboard under development. */
  redirectUris: string[];
  /** The service's BASE_URL, for the commands the ID-token page shows. */
  serviceUrl: string;
  /** The operators' console, a second public client (dev-idp/console-client.ts). */
  console: ConsoleClient;
}

export interface RunningDevIdp {
  issuer: string;
  client: PublicClient;
  close(): Promise<void>;
}

interface DevAccount {
  email: string;
  verified: boolean;
}

/** A stable subject per email, so an account linked once stays linked across restarts. */
const subjectFor = (email: string) => createHash('sha256').update(email).digest('base64url');
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_PENDING = 100;

function signingKeys(): JWK[] {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  return [
    { ...(rsa.export({ format: 'jwk' }) as JWK), kid: 'dev-rs256', alg: 'RS256', use: 'sig' },
    { ...(ec.export({ format: 'jwk' }) as JWK), kid: 'dev-es256', alg: 'ES256', use: 'sig' },
  ];
}

function configuration(
  options: DevIdpOptions,
  client: PublicClient,
  accounts: Map<string, DevAccount>,
): Configuration {
  return {
    clients: [
      {
        client_id: client.clientId,
        client_name: 'Device-care service (development)',
        application_type: 'web',
        // A public client, as a dashboard in the browser is: PKCE instead of a secret.
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [client.redirectUri, ...options.redirectUris],
      },
      consoleClientMetadata(options.console),
    ],
    // Every client is public: the code needs the PKCE verifier, always.
    pkce: { required: () => true },
    // The token endpoint answers a browser's fetch from where the client runs: the console from
    // the service's origins, the dashboard page from this provider's (discovery and keys are
    // open to any origin already).
    clientBasedCORS: (_ctx, origin, c) =>
      c.clientId === options.console.clientId
        ? options.console.origins.includes(origin)
        : (c.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put the scopes' claims in the ID token, as Google does: the service reads only that token.
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    jwks: { keys: signingKeys() },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      const name = account.email.split('@')[0];
      return {
        accountId: sub,
        claims: () => ({ sub, email: account.email, email_verified: account.verified, name }),
      };
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(
        Object.entries(out)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n'),
      );
    },
  };
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store' });
  res.end();
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 10_000) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1 for development and the end-to-end
 * tests: two public clients (the service's dashboard page, the operators' console), a sign-in page that takes any email, consent implied
 * (a company's own dashboard does not ask), and a small page of its own that plays the dashboard
 * (code flow with PKCE) and shows the ID token with the commands to sign in to the service.
 */
export async function startDevIdp(options: DevIdpOptions): Promise<RunningDevIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const issuer = `http://${options.host}:${(server.address() as AddressInfo).port}`;
  const client: PublicClient = {
    issuer,
    clientId: options.clientId,
    redirectUri: `${issuer}/callback`,
  };
  const accounts = new Map<string, DevAccount>();
  const provider = new Provider(issuer, configuration(options, client, accounts));
  const oidc = provider.callback();
  const pending = new Map<string, AuthorizationRequest>();

  async function interaction(req: IncomingMessage, res: ServerResponse, submitted: boolean) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'consent') {
      // Implied consent for the service's own client: grant what it asked for.
      const grant = new provider.Grant({
        accountId: details.session?.accountId,
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      return provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
    }
    const action = `/interaction/${details.uid}/login`;
    const clientId = String(details.params.client_id);
    if (!submitted) return send(res, 200, signInPage(action, clientId));
    const form = await readForm(req);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    if (!EMAIL.test(email)) return send(res, 400, signInPage(action, clientId));
    const accountId = subjectFor(email);
    accounts.set(accountId, { email, verified: form.get('verified') === 'on' });
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    const step = /^\/interaction\/[\w-]+(\/login)?$/.exec(url.pathname);
    if (step) return interaction(req, res, req.method === 'POST' && step[1] !== undefined);
    if (req.method !== 'GET') return oidc(req, res);
    if (url.pathname === '/') return send(res, 200, homePage(issuer, client.clientId));
    if (url.pathname === '/start') {
      const request = authorizationRequest(`${issuer}/auth`, client);
      if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
      pending.set(request.state, request);
      return redirect(res, request.url);
    }
    if (url.pathname === '/callback') {
      const request = pending.get(url.searchParams.get('state') ?? '');
      if (!request) return send(res, 400, errorPage('Unknown or used state: start again.'));
      pending.delete(request.state);
      const idToken = await completeSignIn(client, request, url.toString());
      return send(res, 200, idTokenPage(idToken, options.serviceUrl));
    }
    return oidc(req, res);
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        send(res, 500, errorPage(err instanceof Error ? err.message : String(err)));
      else res.end();
    });
  });
  return {
    issuer,
    client,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
