/**
 * The API document without a listener or a database, from the function the server uses:
 * - `document`: rewrites the committed document, test/support/openapi.json (`npm run
 *   openapi:document`), with the test app's settings; test/http/api-docs.e2e-spec.ts checks that
 *   the running app serves exactly it;
 * - `write FILE`: the JSON document with this environment's settings (`npm run openapi:lint`);
 * - `types`: regenerates test/support/openapi.d.ts (`npm run openapi:types`), which the e2e suite
 *   checks for drift and the typed test client compiles against;
 * - `console`: writes console/src/api/schema.d.ts, the operators' console's API types, on every
 *   `npm run build:console` (not committed: the console compiles against the API as it is).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../src/app.module';
import { buildApiDocument } from '../src/common/openapi/api-document';
import { AppConfig } from '../src/config/app-config';
import { loadAppConfig } from '../src/config/load-env';

export const TYPES_FILE = join(__dirname, '..', 'test', 'support', 'openapi.d.ts');
export const DOCUMENT_FILE = join(__dirname, '..', 'test', 'support', 'openapi.json');
const CONSOLE_TYPES_FILE = join(__dirname, '..', 'console', 'src', 'api', 'schema.d.ts');
const HEADER =
  '// Generated from the OpenAPI document by `npm run openapi:types`: do not edit.\n\n';

/** Preview mode: modules and routes are scanned, no provider is made (no database is opened). */
export async function previewApiDocument(config = loadAppConfig()): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule, { preview: true, logger: false });
  try {
    return buildApiDocument(app, config);
  } finally {
    await app.close();
  }
}

/**
 * openapi-typescript in a plain Node child: its dependencies are ES modules, which Node 20.19+
 * require()s but Jest's module registry cannot load, and the drift spec runs this under Jest.
 */
const GENERATE_TYPES = `
const { default: openapiTS, astToString } = require('openapi-typescript');
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  process.stdout.write(astToString(await openapiTS(JSON.parse(input), { silent: true })));
});`;

export function apiTypes(document: OpenAPIObject): string {
  const types = execFileSync(process.execPath, ['-e', GENERATE_TYPES], {
    cwd: join(__dirname, '..'),
    input: JSON.stringify(document),
    encoding: 'utf8',
  });
  return HEADER + types;
}

function save(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The settings the document shows (version, server, cookie name) as the e2e test app has them. */
const TEST_APP_SETTINGS = () => AppConfig.fromEnv({ NODE_ENV: 'test' }, 'test');

const json = (document: OpenAPIObject): string => JSON.stringify(document, null, 2) + '\n';

async function main([command, file]: string[]): Promise<void> {
  if (command === 'document')
    save(DOCUMENT_FILE, json(await previewApiDocument(TEST_APP_SETTINGS())));
  else if (command === 'write' && file) save(file, json(await previewApiDocument()));
  else if (command === 'types') save(TYPES_FILE, apiTypes(await previewApiDocument()));
  else if (command === 'console')
    save(CONSOLE_TYPES_FILE, apiTypes(await previewApiDocument(TEST_APP_SETTINGS())));
  else throw new Error('usage: openapi.ts document | write FILE | types | console');
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
