import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The API docs are set up on their first request (common/openapi/api-docs.middleware.ts) and
 * Swagger's decorators run then (swagger.decorator.ts). What they answer must not depend on that:
 * the document is compared byte for byte with the one committed in test/support/, first written
 * by the build that loaded `@nestjs/swagger` at boot. After a deliberate change to the API, write
 * it again: `UPDATE_API_DOCUMENT=1 npx jest test/http/api-docs.e2e-spec.ts`, and review its diff.
 */
const DOCUMENT_FILE = join(__dirname, '..', 'support', 'openapi.json');
const UPDATE = process.env.UPDATE_API_DOCUMENT === '1';

describe('the API docs, set up on their first request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serve /api/docs-json byte for byte as committed', async () => {
    const res = await t.http().get('/api/docs-json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    if (UPDATE) writeFileSync(DOCUMENT_FILE, res.text);
    expect(res.text).toBe(readFileSync(DOCUMENT_FILE, 'utf8'));
  });

  it('serve the UI, its initializer with the same document, its assets and the YAML form', async () => {
    const document = readFileSync(DOCUMENT_FILE, 'utf8');
    const html = await t
      .http()
      .get('/api/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(html.text).toContain('<script src="./docs/swagger-ui-init.js"> </script>');
    const init = await t.http().get('/api/docs/swagger-ui-init.js').expect(200);
    // `let options = {"swaggerDoc": <the document>, ...}`, indented two by two.
    const swaggerDoc = JSON.stringify({ swaggerDoc: JSON.parse(document) as object }, null, 2);
    expect(init.text).toContain(swaggerDoc.slice(0, -2));
    await t
      .http()
      .get('/api/docs/swagger-ui.css')
      .expect(200)
      .expect('Content-Type', /text\/css/);
    const yaml = await t.http().get('/api/docs-yaml').expect(200);
    expect(yaml.text.startsWith('openapi: 3.0.0\n')).toBe(true);
  });

  it('leave other paths to the routes: 404 problem details below the prefix', async () => {
    await t
      .http()
      .get('/api/docs/nope')
      .expect(404)
      .expect('Content-Type', /problem\+json/);
    await t.http().get('/api/docs-jsonx').expect(404);
    // Only Swagger's own paths, spelled as the routes are (case-sensitive routing).
    await t.http().get('/api/docsx').expect(404);
    await t.http().get('/API/DOCS').expect(404);
    await t.http().get('/api/Docs-json').expect(404);
  });
});
