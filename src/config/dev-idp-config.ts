import { AppConfig } from './app-config';
import { loadAppConfig, readEnv } from './load-env';

/**
 * The service's configuration as `npm run dev:idp` reads it: the same environment and `.env`
 * (the environment wins), so the provider serves the issuer and client id the service trusts.
 * Refuses production before anything else: that provider signs anyone in.
 */
export function devIdpAppConfig(): AppConfig {
  if (readEnv().NODE_ENV?.trim() === 'production') {
    throw new Error(
      'dev:idp refuses to run with NODE_ENV=production: it signs in anyone who types an email',
    );
  }
  return loadAppConfig();
}
