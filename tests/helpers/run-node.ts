/**
 * Runs a Node entry of the repository as a child process, as a user would from a shell. It runs asynchronously, so a
 * twin started in the test's own process can still answer it.
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from './local-stack.ts';

export type NodeRun = { code: number | null; stdout: string; stderr: string };

/**
 * `node <args>` in the repository root with this process's environment plus `env`; resolves with the exit code and
 * everything printed. With `timeoutMs`, a child still running then is killed and the run rejects, naming `what`.
 */
export function runNode(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; what?: string } = {},
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_NO_WARNINGS: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
            reject(
              new Error(
                `${options.what ?? args.join(' ')} did not exit within ${options.timeoutMs} ms:\n${stdout}\n${stderr}`,
              ),
            );
          }, options.timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
