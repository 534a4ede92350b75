/**
 * Headless Chromium for the site's browser tests: the system browser (/usr/bin/chromium, never a download), a fresh
 * profile per launch, software WebGL2 through SwiftShader so NiiVue can draw.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite, siteNeedsBuild } from '#infra/local/site.ts';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT, startTestStack, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const TEST_OUTPUT = join(REPO_ROOT, 'test-output');

const BUILD_LOCK = join(
  tmpdir(),
  `iws-site-build-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`,
);

/**
 * Builds web/dist once when it is missing or older than its sources. Test files run in parallel workers and a Vite
 * build empties web/dist first, so builds are serialised with a lock directory and every file then starts its twin
 * with `buildSite: false` on the finished build.
 */
export async function ensureSiteBuilt(): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      // A lock older than any build can be is left over from a killed run.
      if (existsSync(BUILD_LOCK) && Date.now() - statSync(BUILD_LOCK).mtimeMs > 5 * 60_000)
        rmSync(BUILD_LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the site build lock ${BUILD_LOCK}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (siteNeedsBuild()) await buildSite(() => {});
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

export type TestBrowser = { browser: BrowserContext; page: Page; close(): Promise<void> };

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is required for the browser tests and was not found at ${CHROMIUM_PATH} (Debian: apt-get install chromium).`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'iws-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1400, height: 900 },
    acceptDownloads: true,
    args: [
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(30_000);
  // Page errors explain a failed step better than the timeout that follows them.
  browser.on('page', (p) => p.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`)));
  page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
  page.on('requestfailed', (r) => {
    // Navigations abort the previous page's requests; only real failures are worth a line.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED')
      process.stderr.write(`[request failed] ${r.url().slice(0, 160)} ${r.failure()?.errorText ?? ''}\n`);
  });
  return {
    browser,
    page,
    async close() {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type SiteInBrowser = { readonly stack: TestStack; readonly browser: TestBrowser };

/**
 * Registers the file's beforeAll/afterAll for a browser test: the site built, a fresh twin serving it, optionally seeded
 * through its API before the browser opens, and a browser, optionally signed in. The handles are read from the returned
 * object inside tests (they exist once beforeAll has run); both are closed after the file.
 */
export function useSiteInBrowser(
  options: { seed?: (stack: TestStack) => Promise<void>; signInAs?: string } = {},
): SiteInBrowser {
  let stack: TestStack | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    await ensureSiteBuilt();
    stack = await startTestStack({ buildSite: false });
    await options.seed?.(stack);
    browser = await launchBrowser();
    if (options.signInAs) await signInThroughSite(browser.page, stack.url, options.signInAs, TEST_DEMO_PASSWORD);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.dispose();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${what} is not started: read it inside a test, after beforeAll`);
    return value;
  };
  return {
    get stack() {
      return started(stack, 'twin');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

export function outputPath(name: string): string {
  mkdirSync(TEST_OUTPUT, { recursive: true });
  return join(TEST_OUTPUT, name);
}

/**
 * Signs in through the login page as a real user does. "Remember me" is off unless asked for, and then the session
 * lives in this tab only; a test that opens another tab signed in asks for `remember`.
 */
export async function signInThroughSite(
  page: Page,
  url: string,
  email: string,
  password: string,
  options: { remember?: boolean } = {},
): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  if (options.remember) await page.getByText('Remember me').click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/dashboard|\/hospital-admin/, { timeout: 30_000 });
}

/**
 * Reads the viewer canvas back right after a NiiVue draw (in the same task, so the drawing buffer is still there)
 * and returns how many sampled pixels are not the background, and how many distinct grey/colour values they have.
 */
export async function sampleViewerCanvas(
  page: Page,
): Promise<{ width: number; height: number; nonBackground: number; distinct: number }> {
  return page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="niivue-canvas"]') as HTMLCanvasElement & {
      niivue?: { drawScene(): void };
    };
    if (!canvas?.niivue) throw new Error('No NiiVue canvas on the page');
    canvas.niivue.drawScene();
    const gl = canvas.getContext('webgl2')!;
    const { width, height } = { width: gl.drawingBufferWidth, height: gl.drawingBufferHeight };
    const pixels = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    let nonBackground = 0;
    const distinct = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4 * 7) {
      const r = pixels[i]!,
        g = pixels[i + 1]!,
        b = pixels[i + 2]!;
      if (r + g + b > 30) {
        nonBackground++;
        distinct.add((r << 16) | (g << 8) | b);
      }
    }
    return { width, height, nonBackground, distinct: distinct.size };
  });
}
