/**
 * `iws upload` in its own process, as a researcher runs it (/config.json, Cognito sign-in, POST /api/datasets,
 * presigned multipart uploads): resolves with its JSON line, its wall time and when it was started. It runs the built
 * command (cli/dist/iws.mjs, what the package installs as `iws`), rebuilt from the source once per bench run, so a
 * bench on a busy machine does not also pay a TypeScript loader's start in each upload's process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './data.ts';

export type IwsUploadResult = { datasetId: string; status: string; wallMs: number; spawnedAt: number };

let built = false;

/** cli/dist/iws.mjs from the source as it is now (scripts/build-cli.mjs, a fraction of a second). */
function builtCli(): string {
  if (!built) {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/build-cli.mjs')], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error('building the iws command failed');
    built = true;
  }
  return join(REPO_ROOT, 'cli/dist/iws.mjs');
}

export function iwsUpload(options: {
  url: string;
  folder: string;
  email: string;
  password: string;
  description: string;
  mrn: string;
}): Promise<IwsUploadResult> {
  const cli = builtCli();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const spawnedAt = Date.now();
    const child = spawn(
      process.execPath,
      [
        cli,
        'upload',
        options.folder,
        '--api',
        options.url,
        '--email',
        options.email,
        '--mrn',
        options.mrn,
        '--description',
        options.description,
        '--quiet',
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, IWS_PASSWORD: options.password } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const wallMs = performance.now() - started;
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(line) as { datasetId: string; status: string };
        if (code !== 0) throw new Error(`exit status ${code}`);
        resolve({ ...parsed, wallMs, spawnedAt });
      } catch (error) {
        reject(new Error(`iws upload failed (${(error as Error).message}):\n${stderr}${stdout}`));
      }
    });
  });
}
