/** Runs Vigil as README says (`npm start`), in its own process, and finds the URL it logs. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface VigilProcess {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  /** The playground page, from the "playground ready" log line. */
  url: string;
  stop(): Promise<number | null>;
}

const BUILT = join('dist', 'src', 'main.js');

/** Whether a source file changed since the last build (`npm ci` builds; so does a test after an edit). */
function buildIsStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const built = statSync(BUILT).mtimeMs;
  const sources = [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    ...readdirSync('src', { recursive: true }).map((f) => join('src', String(f))),
  ];
  return sources.some((f) => statSync(f).mtimeMs > built);
}

/**
 * `npm run build`, the step `npm ci` runs through `prepare`, when the build is older than the sources. Not
 * rebuilding a fresh build keeps a compile burst from starving the timing-sensitive tests running alongside.
 */
export async function buildIfStale(): Promise<void> {
  if (!buildIsStale()) return;
  await promisify(execFile)('npm', ['run', 'build'], { cwd: process.cwd(), timeout: 240_000 });
}

export async function startVigilProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<VigilProcess> {
  const child = spawn('npm', ['start'], {
    cwd: process.cwd(),
    // Nothing configured: only what a shell needs to find node, the port, and JSON logs (read below).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (d: string) => stdout.push(...d.split('\n').filter(Boolean)));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => stderr.push(...d.split('\n').filter(Boolean)));
  // 'close' waits for the pipes too: npm may exit before the node process under it has finished stopping.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const stop = async () => {
    // npm runs node as a child: signal the whole group this test started.
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    return exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = stdout.find((l) => l.includes('playground ready'));
    if (line) {
      const url = (JSON.parse(line) as { url: string }).url;
      return { child, stdout, stderr, url, stop };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`Vigil did not report its playground URL:\n${stdout.join('\n')}\n${stderr.join('\n')}`);
}
