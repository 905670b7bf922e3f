import { servesDocs } from './api-docs.middleware';

describe('servesDocs: the requests that load Swagger', () => {
  it.each([
    '/api/docs',
    '/api/docs/',
    '/api/docs/swagger-ui.css',
    '/api/docs-json',
    '/api/docs-yaml?x=1',
    'http://proxy.example/api/docs-json',
  ])('%s is one of Swagger’s paths', (url) => {
    expect(servesDocs(url)).toBe(true);
  });

  it.each([
    '/api/docsx',
    '/API/DOCS',
    '/api/Docs-json',
    '/api/docs-jsonx',
    '/api/v1/devices',
    '/health?/api/docs',
    'http://proxy.example',
  ])('%s is left to the routes, Swagger not loaded for it', (url) => {
    expect(servesDocs(url)).toBe(false);
  });
});
