/**
 * `iws upload` in its own process, as a researcher runs it (/config.json, Cognito sign-in, POST /api/datasets,
 * presigned multipart uploads): resolves with its JSON line, its wall time and when it was started.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './data.ts';

export type IwsUploadResult = { datasetId: string; status: string; wallMs: number; spawnedAt: number };

export function iwsUpload(options: {
  url: string;
  folder: string;
  email: string;
  password: string;
  description: string;
  mrn: string;
}): Promise<IwsUploadResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const spawnedAt = Date.now();
    const child = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'cli/iws.mjs'),
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
