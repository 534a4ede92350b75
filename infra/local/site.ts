import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { siteContentSecurityPolicy } from '#infra/site-csp.ts';

/**
 * The site as the twin serves it: web/dist (built with Vite when missing or older than its sources), any path that
 * is not a file falling back to index.html for the single-page router.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = join(ROOT, 'web');
const DIST = join(WEB, 'dist');
const SOURCES = [
  join(WEB, 'src'),
  join(WEB, 'index.html'),
  join(WEB, 'vite.config.ts'),
  join(WEB, 'build'),
  join(WEB, 'public'),
];

/** On the twin the API, Cognito and presigned URLs are all on the site's own origin. */
export const LOCAL_SITE_CONTENT_SECURITY_POLICY = siteContentSecurityPolicy({ connect: [], images: [], forms: [] });

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function siteNeedsBuild(): boolean {
  const built = join(DIST, 'index.html');
  if (!existsSync(built)) return true;
  return Math.max(...SOURCES.map(newestMtime)) > statSync(built).mtimeMs;
}

export function siteSourcesExist(): boolean {
  return existsSync(join(WEB, 'index.html')) && existsSync(join(WEB, 'vite.config.ts'));
}

export async function buildSite(log: (line: string) => void): Promise<void> {
  log('Building the site (vite build --config web/vite.config.ts)…');
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, [vite, 'build', '--config', join(WEB, 'vite.config.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The site build failed:\n${output}`))));
  });
}

export function serveSite(req: IncomingMessage, res: ServerResponse, pathname: string): void {
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' });
    res.end();
    return;
  }
  let file = normalize(join(DIST, decodeURIComponent(pathname)));
  if (!file.startsWith(DIST + sep) && file !== DIST) {
    res.writeHead(400);
    res.end();
    return;
  }
  // The build keeps source maps for debugging on disk (hidden); they are not served.
  const isFile = existsSync(file) && statSync(file).isFile() && extname(file) !== '.map';
  if (!isFile) {
    // Paths with an extension are missing files; everything else is a route of the single-page app.
    if (extname(pathname) && !pathname.endsWith('.html')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
      return;
    }
    file = join(DIST, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The site is not built (web/dist is missing). Run: npx vite build --config web/vite.config.ts');
      return;
    }
  }
  const immutable = pathname.startsWith('/assets/');
  res.writeHead(200, {
    'content-type': MIME[extname(file)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'content-security-policy': LOCAL_SITE_CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
