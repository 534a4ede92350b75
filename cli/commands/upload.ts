/**
 * `iws upload <folder> --api <url> --email <e> --mrn <id> [--wait]`: uploads a study through the public API exactly
 * as the site does (runtime config, Cognito USER_PASSWORD_AUTH sign-in, create the dataset, the shared upload
 * client), then prints {"datasetId", "status"} as JSON.
 *
 * The password comes from IWS_PASSWORD or a hidden prompt, never argv. It is sent only to Cognito over https, or to
 * the site itself when that site is on this machine, whatever the site's /config.json says. Folder and file names
 * often name patients: none of them leaves this machine (files are uploaded under neutral names).
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Dataset } from '#shared/schemas/api/datasets.ts';
import { STUDY_TYPES, URGENCIES } from '#shared/vocabulary/datasets.ts';
import { MAX_ENHANCED_FILES } from '#shared/schemas/api/uploads.ts';
import { createApiClient, uploadDataset, type UploadSource } from '#shared/client/index.ts';
import { PASSWORD_VARIABLE, readPassword } from '#cli/lib/password.ts';

/** Never built from the folder's name: folder names often name patients. */
const DEFAULT_DESCRIPTION = 'Uploaded with iws';

export const usage = `Usage: iws upload <folder> --api <url> --email <e> --mrn <id> [options]

Uploads every file of <folder> (sub-folders included, hidden files skipped) as one dataset and prints
{"datasetId": ..., "status": ...} as JSON. <url> is the site (where /config.json is served): https://, or
http:// only for a site on this machine (localhost, 127.0.0.0/8, ::1), e.g. http://127.0.0.1:3000.

The password is read from ${PASSWORD_VARIABLE}, or asked for (not echoed) when run in a terminal; it is never taken
from the command line. It is sent only to Cognito (https://cognito-idp.<region>.amazonaws.com/), or to the site
itself when the site is on this machine. Files are uploaded under neutral names: no folder or file name is sent.

Options:
  --mrn <id>              patient MRN (required); never stored, the server keeps a keyed hash
  --wait                  wait until the dataset is COMPLETE or FAILED (exit status 1 if FAILED)
  --timeout <seconds>     give up waiting after this long (default 3600)
  --study-type <type>     ${STUDY_TYPES.join(' | ')} (default RESEARCH)
  --urgency <level>       ${URGENCIES.join(' | ')} (default ROUTINE)
  --description <text>    study description (default "${DEFAULT_DESCRIPTION}")
  --indication <text>     clinical indication (default "Not given (command-line upload)")
  --physician <name>      ordering physician (default "Not given")
  --department <name>     department (default "Radiology")
  --concurrency <n>       parallel part uploads (default 4)
  --quiet                 no progress lines on stderr
Using this command states that patient consent and the HIPAA disclosure were obtained, as the upload wizard asks.
`;

type RuntimeConfig = {
  region: string;
  userPoolClientId: string;
  apiBaseUrl: string;
  /** Where the password and refresh token are sent, checked by signInEndpoint(). */
  signInEndpoint: string;
};
type Tokens = { idToken: string; refreshToken?: string; expiresAt: number };

const TERMINAL = new Set(['COMPLETE', 'FAILED']);

/** localhost, 127.0.0.0/8 or ::1 (the URL parser has already normalised forms such as 127.1 or [0:0::1]). */
export function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** The site URL given as --api: https, or plain http only to this machine, where nothing crosses a network. */
export function checkSiteUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--api must be a URL such as https://imaging.example.org, not "${text}"`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url))) return url;
  throw new Error(
    `--api must be https:// (plain http:// only to this machine: localhost, 127.0.0.0/8, ::1), not ${url.origin}`,
  );
}

const COGNITO_HOST = /^cognito-idp\.[a-z]{2}(?:-[a-z]+)+-\d{1,2}\.amazonaws\.com$/;

/**
 * Where the password may go: Cognito's own https endpoint for the region, or, for a site on this machine, that same
 * site (the local twin's stand-in). Anything else a /config.json names is refused before a password is sent.
 */
export function signInEndpoint(config: { region?: unknown; userPoolEndpoint?: unknown }, site: URL): string {
  const named =
    typeof config.userPoolEndpoint === 'string' && config.userPoolEndpoint
      ? config.userPoolEndpoint
      : `https://cognito-idp.${String(config.region)}.amazonaws.com/`;
  let endpoint: URL | undefined;
  try {
    endpoint = new URL(named, site);
  } catch {
    endpoint = undefined;
  }
  if (endpoint && !endpoint.username && !endpoint.password) {
    const cognito =
      endpoint.protocol === 'https:' &&
      COGNITO_HOST.test(endpoint.hostname) &&
      endpoint.port === '' &&
      endpoint.pathname === '/' &&
      !endpoint.search;
    if (cognito || (isLoopback(site) && endpoint.origin === site.origin)) return endpoint.href;
  }
  throw new Error(
    `${site.origin}/config.json sends sign-in to ${endpoint?.origin ?? JSON.stringify(named)}: the password goes only ` +
      'to Cognito (https://cognito-idp.<region>.amazonaws.com/) or to the site itself on this machine; not sent',
  );
}

/** Where the ID token goes: https, or the site itself when it is on this machine. */
function checkApiBase(apiBaseUrl: string, site: URL): string {
  const url = new URL(apiBaseUrl, site);
  if (url.protocol === 'https:' || (isLoopback(site) && url.origin === site.origin))
    return url.href.replace(/\/+$/, '');
  throw new Error(`${site.origin}/config.json names the API at ${url.origin}: only https:// is used`);
}

/** The site's /config.json, with where sign-in and API calls go checked against the site's own URL. */
export async function fetchRuntimeConfig(siteUrl: string | URL): Promise<RuntimeConfig> {
  const site = typeof siteUrl === 'string' ? checkSiteUrl(siteUrl) : siteUrl;
  let response: Response;
  try {
    response = await fetch(new URL('/config.json', site));
  } catch {
    throw new Error(`cannot reach ${site.origin}: is the site (or npm start) running there?`);
  }
  if (!response.ok) throw new Error(`${site.origin}/config.json answered HTTP ${response.status}`);
  const config = (await response.json()) as Record<string, unknown>;
  return {
    region: String(config.region),
    userPoolClientId: String(config.userPoolClientId),
    // apiBaseUrl may be relative to the site ('' or '/api').
    apiBaseUrl: checkApiBase(
      typeof config.apiBaseUrl === 'string' && config.apiBaseUrl ? config.apiBaseUrl : '/',
      site,
    ),
    signInEndpoint: signInEndpoint(config, site),
  };
}

async function initiateAuth(
  config: RuntimeConfig,
  flow: 'USER_PASSWORD_AUTH' | 'REFRESH_TOKEN_AUTH',
  parameters: Record<string, string>,
): Promise<Tokens> {
  const response = await fetch(config.signInEndpoint, {
    method: 'POST',
    // A redirect would carry the password to a place that was never checked.
    redirect: 'error',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({ AuthFlow: flow, ClientId: config.userPoolClientId, AuthParameters: parameters }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    AuthenticationResult?: { IdToken: string; RefreshToken?: string; ExpiresIn?: number };
    ChallengeName?: string;
    __type?: string;
    message?: string;
  };
  if (!response.ok || !body.AuthenticationResult) {
    if (body.ChallengeName) throw new Error(`Sign-in needs ${body.ChallengeName}: finish it in the site first.`);
    const type = String(body.__type ?? '')
      .split('#')
      .pop();
    throw new Error(
      type === 'NotAuthorizedException' || type === 'UserNotFoundException' || type === 'InvalidPasswordException'
        ? 'Invalid credentials'
        : `Sign-in failed: ${body.message ?? `HTTP ${response.status}`}`,
    );
  }
  const result = body.AuthenticationResult;
  return {
    idToken: result.IdToken,
    refreshToken: result.RefreshToken ?? parameters.REFRESH_TOKEN,
    expiresAt: Date.now() + (result.ExpiresIn ?? 3600) * 1000,
  };
}

/** Cognito InitiateAuth USER_PASSWORD_AUTH; returns the ID token the API expects. */
export async function signInWithPassword(config: RuntimeConfig, email: string, password: string): Promise<Tokens> {
  return initiateAuth(config, 'USER_PASSWORD_AUTH', { USERNAME: email, PASSWORD: password });
}

/** A token getter that refreshes a minute before expiry, so long waits keep working. */
function tokenGetter(config: RuntimeConfig, tokens: Tokens): () => Promise<string> {
  let current = tokens;
  return async () => {
    if (current.refreshToken && current.expiresAt - Date.now() < 60_000) {
      current = await initiateAuth(config, 'REFRESH_TOKEN_AUTH', { REFRESH_TOKEN: current.refreshToken });
    }
    return current.idToken;
  };
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.push(path);
    }
  }
  await walk(root);
  return out;
}

/**
 * The name a file is uploaded under: its place in the sorted listing, so a rerun on the same folder resumes the same
 * files, and no folder or file name (they often name patients) reaches the server.
 */
export function neutralUploadPath(index: number): string {
  return `file-${String(index + 1).padStart(5, '0')}`;
}

/** The salt of `iws upload`'s file keys: from the dataset id alone, so any rerun for the dataset computes the same keys. */
export function uploadSaltOf(datasetId: string): string {
  return `iws-upload:${datasetId}`;
}

async function fileSource(path: string, index: number): Promise<UploadSource> {
  return diskUploadSource(path, neutralUploadPath(index), (await stat(path)).size);
}

/** A file on disk as an upload source named `uploadPath`: each part's byte range is read from the file when it is sent. */
export function diskUploadSource(path: string, uploadPath: string, sizeBytes: number): UploadSource {
  return {
    path: uploadPath,
    sizeBytes,
    async read(start, end) {
      const handle = await open(path, 'r');
      try {
        const bytes = new Uint8Array(end - start);
        let offset = 0;
        while (offset < bytes.length) {
          const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, start + offset);
          if (bytesRead === 0) break;
          offset += bytesRead;
        }
        return offset === bytes.length ? bytes : bytes.subarray(0, offset);
      } finally {
        await handle.close();
      }
    },
  };
}

function fail(message: string): number {
  process.stderr.write(`iws upload: ${message}\n`);
  return 2;
}

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        api: { type: 'string' },
        email: { type: 'string' },
        // Accepted by the parser only to refuse it with a reason.
        password: { type: 'string' },
        wait: { type: 'boolean' },
        timeout: { type: 'string' },
        mrn: { type: 'string' },
        'study-type': { type: 'string' },
        urgency: { type: 'string' },
        description: { type: 'string' },
        indication: { type: 'string' },
        physician: { type: 'string' },
        department: { type: 'string' },
        concurrency: { type: 'string' },
        quiet: { type: 'boolean' },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${usage}`);
  }
  const { values, positionals } = parsed;
  const folder = positionals[0];
  if (!folder || positionals.length > 1) return fail(`give exactly one folder\n\n${usage}`);
  if (values.password !== undefined)
    return fail(
      `--password is refused: a password on the command line is visible to other users (ps) and kept in shell ` +
        `history. Set ${PASSWORD_VARIABLE}, or run in a terminal to be asked for it.`,
    );
  if (!values.api || !values.email || !values.mrn) return fail(`--api, --email and --mrn are required\n\n${usage}`);
  let site: URL;
  try {
    site = checkSiteUrl(values.api);
  } catch (error) {
    return fail((error as Error).message);
  }
  const studyType = values['study-type'] ?? 'RESEARCH';
  if (!(STUDY_TYPES as readonly string[]).includes(studyType))
    return fail(`--study-type must be one of ${STUDY_TYPES.join(', ')}`);
  const urgency = values.urgency ?? 'ROUTINE';
  if (!(URGENCIES as readonly string[]).includes(urgency))
    return fail(`--urgency must be one of ${URGENCIES.join(', ')}`);
  const timeoutSeconds = values.timeout ? Number(values.timeout) : 3600;
  const concurrency = values.concurrency ? Number(values.concurrency) : 4;
  if (!(timeoutSeconds > 0) || !(concurrency >= 1)) return fail('--timeout and --concurrency must be positive numbers');
  const quiet = values.quiet ?? false;
  const progress = (line: string) => {
    if (!quiet) process.stderr.write(`${line}\n`);
  };

  const root = resolve(folder);
  const rootInfo = await stat(root).catch(() => undefined);
  if (!rootInfo?.isDirectory()) return fail(`${folder} is not a folder`);
  const paths = await listFiles(root);
  if (paths.length === 0) return fail(`${folder} holds no files`);
  if (paths.length > MAX_ENHANCED_FILES) return fail(`Too many files. Maximum ${MAX_ENHANCED_FILES} files allowed.`);
  const files = await Promise.all(paths.map((path, index) => fileSource(path, index)));

  const config = await fetchRuntimeConfig(site);
  const password = await readPassword(values.email, { env: process.env, stdin: process.stdin, stderr: process.stderr });
  if (!password)
    return fail(`no password: set ${PASSWORD_VARIABLE}, or run in a terminal to be asked for it (it is not echoed)`);
  const tokens = await signInWithPassword(config, values.email, password);
  const api = { baseUrl: config.apiBaseUrl, getToken: tokenGetter(config, tokens) };
  const request = createApiClient(api);

  const dataset = await request<Dataset>('POST', '/api/datasets', {
    mrn: values.mrn,
    studyType,
    urgency,
    studyDescription: values.description ?? DEFAULT_DESCRIPTION,
    clinicalIndication: values.indication ?? 'Not given (command-line upload)',
    orderingPhysician: values.physician ?? 'Not given',
    department: values.department ?? 'Radiology',
    patientConsent: true,
    hipaaDisclosure: true,
  });
  progress(`dataset ${dataset.id} created; uploading ${files.length} files`);

  let lastTenth = -1;
  const started = Date.now();
  const result = await uploadDataset({
    api,
    datasetId: dataset.id,
    files,
    // The neutral names identify nobody, so the salt need not be secret: one derived from the dataset resumes on a rerun.
    salt: uploadSaltOf(dataset.id),
    concurrency,
    onProgress: (p) => {
      const tenth = p.totalBytes === 0 ? 10 : Math.floor((p.uploadedBytes / p.totalBytes) * 10);
      if (tenth !== lastTenth) {
        lastTenth = tenth;
        progress(
          `uploaded ${(p.uploadedBytes / 1048576).toFixed(1)} of ${(p.totalBytes / 1048576).toFixed(1)} MiB, ${p.filesComplete}/${p.filesTotal} files`,
        );
      }
    },
  });
  progress(
    `upload complete in ${((Date.now() - started) / 1000).toFixed(1)} s (${result.progress.partsSent} parts sent, ${result.progress.partsSkipped} already there)`,
  );

  let current = await request<Dataset>('GET', `/api/datasets/${encodeURIComponent(dataset.id)}`);
  if (values.wait) {
    const deadline = Date.now() + timeoutSeconds * 1000;
    let lastStatus = current.status;
    progress(`status ${lastStatus}`);
    while (!TERMINAL.has(current.status)) {
      if (Date.now() > deadline) {
        process.stdout.write(`${JSON.stringify({ datasetId: dataset.id, status: current.status })}\n`);
        process.stderr.write(`iws upload: still ${current.status} after ${timeoutSeconds} s\n`);
        return 1;
      }
      await new Promise((r) => setTimeout(r, 2000));
      current = await request<Dataset>('GET', `/api/datasets/${encodeURIComponent(dataset.id)}`);
      if (current.status !== lastStatus) {
        lastStatus = current.status;
        progress(`status ${lastStatus}`);
      }
    }
  }
  const output: Record<string, unknown> = { datasetId: dataset.id, status: current.status };
  if (current.failureReason) output.failureReason = current.failureReason;
  process.stdout.write(`${JSON.stringify(output)}\n`);
  return current.status === 'FAILED' ? 1 : 0;
}
