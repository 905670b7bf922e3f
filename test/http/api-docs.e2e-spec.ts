import { readFileSync } from 'node:fs';
import { DOCUMENT_FILE } from '../../scripts/openapi';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The API docs (common/openapi/api-docs.ts). The served document is compared byte for byte with
 * the one committed in test/support/openapi.json (indented there, for its diffs). After a
 * deliberate change to the API, write it again with `npm run openapi:document`, and review its diff.
 */
const committed = (): string => JSON.stringify(JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')));

describe('the API docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serve /api/docs-json byte for byte as committed', async () => {
    const res = await t.http().get('/api/docs-json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(committed());
  });

  it('serve the UI, its initializer with the same document, its assets and the YAML form', async () => {
    const document = committed();
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

  it('serve every file the page names, and no other file of swagger-ui-dist', async () => {
    const html = (await t.http().get('/api/docs').expect(200)).text;
    const assets = [...html.matchAll(/(?:src|href)="\.\/docs\/([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['swagger-ui.css', 'swagger-ui-bundle.js']));
    for (const asset of assets) {
      await t.http().get(`/api/docs/${asset}`).expect(200);
      await t.http().get(`/api/docs/docs/${asset}`).expect(200);
    }
    for (const file of [
      'package.json',
      'swagger-ui-bundle.js.map',
      'swagger-ui.css.map',
      'index.js',
      'absolute-path.js',
      'swagger-ui-es-bundle.js',
      'oauth2-redirect.html',
      'LICENSE',
    ]) {
      for (const path of [`/api/docs/${file}`, `/api/docs/docs/${file}`]) {
        const res = await t.http().get(path);
        expect([path, res.status, res.headers['content-type']]).toEqual([
          path,
          404,
          expect.stringMatching(/problem\+json/),
        ]);
      }
    }
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
