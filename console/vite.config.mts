import { defineConfig } from 'vite';

/**
 * The console is served by the service at /console/ (src/console-pages/); `npm run dev:console`
 * serves it with hot reload and sends the API calls to a running service on port 3000.
 */
export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  base: '/console/',
  // React 19's automatic JSX runtime; no plugin needed to build (the React plugin adds only
  // fast refresh for development).
  oxc: { jsx: { runtime: 'automatic', development: command !== 'build' } },
  // A build is always the production one, whatever NODE_ENV the caller has: `npm test` runs it
  // under NODE_ENV=test, which would otherwise give React's development build.
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline script may run under the console's CSP; the preload polyfill is not needed by
    // the browsers that run ES2022.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // react-router marks its modules "use client" for server components; a plain SPA bundle
      // has no such boundary, so the notice that the directive is dropped says nothing here.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
}));
