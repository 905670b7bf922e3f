import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

const FETCH_TIMEOUT_MS = 5000;

/** The fields of `/.well-known/openid-configuration` the service reads. */
export interface DiscoveryDocument {
  issuer?: string;
  jwks_uri?: string;
}

/** What `/health` shows about sign-in: configuration mistakes, never its status. */
export interface SignInHealth {
  configured: boolean;
  /** The issuer the provider's discovery document names, once it has been read. */
  discovered_issuer?: string;
  warnings: string[];
}

/**
 * The identity provider's discovery document, read at boot and whenever the keys need it. At
 * boot it is read only to compare its `issuer` with OIDC_ISSUER: a provider that names another
 * issuer signs tokens this service will refuse, and the operator should hear it before users do.
 */
@Injectable()
export class OidcDiscovery implements OnApplicationBootstrap {
  private readonly logger = new Logger('OidcDiscovery');
  private pending?: Promise<DiscoveryDocument>;
  private discoveredIssuer?: string;
  private warning?: string;

  constructor(private readonly config: AppConfig) {}

  /** Not awaited: a slow or absent provider must not hold the boot. */
  onApplicationBootstrap(): void {
    if (this.config.oidc.issuers.length === 0 || !this.config.oidc.discoveryBase) return;
    this.document().catch(() => undefined); // the failure is logged and kept for /health
  }

  /** The document, fetched once; a failed fetch is forgotten so the next call tries again. */
  document(): Promise<DiscoveryDocument> {
    this.pending ??= this.fetchDocument().catch((err: unknown) => {
      this.pending = undefined;
      throw err;
    });
    return this.pending;
  }

  health(): SignInHealth {
    const configured = this.config.oidc.issuers.length > 0;
    return {
      configured,
      ...(this.discoveredIssuer !== undefined && { discovered_issuer: this.discoveredIssuer }),
      warnings: this.warning ? [this.warning] : [],
    };
  }

  private async fetchDocument(): Promise<DiscoveryDocument> {
    const url = `${this.config.oidc.discoveryBase}/.well-known/openid-configuration`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`it answered ${res.status}`);
      const doc = (await res.json()) as DiscoveryDocument;
      this.checkIssuer(url, doc.issuer);
      return doc;
    } catch (err) {
      this.warning = `The discovery document ${url} could not be read: ${(err as Error).message}`;
      this.logger.warn(this.warning);
      throw err;
    }
  }

  private checkIssuer(url: string, issuer: unknown): void {
    this.discoveredIssuer = typeof issuer === 'string' ? issuer : undefined;
    const listed = this.config.oidc.issuers;
    if (typeof issuer === 'string' && listed.includes(issuer)) {
      this.warning = undefined;
      return;
    }
    const bare = (s: string) => s.replace(/\/+$/, '');
    const slashOnly = typeof issuer === 'string' && listed.some((s) => bare(s) === bare(issuer));
    const hint = slashOnly ? ' (they differ by a trailing slash)' : '';
    this.warning =
      `The discovery document ${url} names the issuer ${JSON.stringify(issuer)}, which ` +
      `OIDC_ISSUER (${listed.join(', ')}) does not list${hint}: its tokens will be refused ` +
      'as unknown_issuer. Add that spelling to OIDC_ISSUER if it is the same provider.';
    this.logger.warn(this.warning);
  }
}
