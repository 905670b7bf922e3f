import { Global, Logger, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { loadAppConfig } from './load-env';

/** The process's configuration (loadAppConfig's one instance), and what a serving process says of it. */
function appConfig(): AppConfig {
  const config = loadAppConfig();
  if (config.deviceToken.secretWasGenerated) {
    new Logger('Config').warn(
      'DEVICE_TOKEN_SECRET is not set: using a random secret, so device tokens end with this process',
    );
  }
  return config;
}

/**
 * `AppConfig` for every module: the one typed reader of the settings (see ARCHITECTURE.md for why
 * not @nestjs/config). Tests override the provider with their own instance.
 */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: appConfig }],
  exports: [AppConfig],
})
export class ConfigModule {}
