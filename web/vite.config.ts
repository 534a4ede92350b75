import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { niivueGradientOnDemand } from './build/niivue-gradient-on-demand.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The site: root web/, built to web/dist and served by the local twin or the CloudFront site bucket.
 * JSX goes through Vite's built-in transform with the automatic runtime, so no React plugin is needed.
 * `#shared/*` and `#web/*` mirror the package.json "imports" aliases so the site and the server import the same engine.
 */
export default defineConfig(({ command }) => ({
  root: webRoot,
  base: '/',
  publicDir: 'public',
  plugins: [niivueGradientOnDemand()],
  resolve: {
    alias: [
      { find: /^#shared\/(.*)$/, replacement: `${repoRoot}shared/$1` },
      { find: /^#web\/(.*)$/, replacement: `${webRoot}src/$1` },
    ],
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: command !== 'build' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for local debugging but not referenced from the bundles; the web stack never publishes them.
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // Chakra's Ark UI marks modules "use client"; that directive means nothing in a client-only bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  // The upload wizard's discovery worker (docs/domain.md#uploads) is a module worker.
  worker: { format: 'es' },
  // A build is for users: React's production build, even when the build runs under a test runner (NODE_ENV=test).
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  server: {
    fs: { allow: [repoRoot] },
    proxy: {
      '/api': process.env.IWS_API_ORIGIN ?? 'http://127.0.0.1:3000',
      '/config.json': process.env.IWS_API_ORIGIN ?? 'http://127.0.0.1:3000',
      '/_aws': process.env.IWS_API_ORIGIN ?? 'http://127.0.0.1:3000',
    },
  },
}));
