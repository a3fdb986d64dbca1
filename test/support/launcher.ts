/**
 * Vigil as README says to run it: `npm start` (or `npm run demo`) over the build in dist/, through the
 * launcher (scripts/start.js) that picks the playground or Vigil itself. In its own process group, so a stop
 * reaches the node process under npm.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

export interface NpmProcess {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  /** The exit code, once npm and the pipes have closed. */
  exited: Promise<number | null>;
  /** SIGTERM to the whole group this test started; resolves with the exit code. */
  stop(): Promise<number | null>;
}

const BUILT = [
  join('dist', 'src', 'main.js'),
  join('dist', 'packages', 'playground', 'src', 'playground', 'main.js'),
];
const SOURCES = ['src', join('packages', 'playground', 'src'), 'scripts'];

/** Whether a source file changed since the last build (`npm ci` builds; so does a test after an edit). */
function buildIsStale(): boolean {
  if (!BUILT.every((f) => existsSync(f))) return true;
  const built = Math.min(...BUILT.map((f) => statSync(f).mtimeMs));
  const sources = [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    ...SOURCES.flatMap((dir) => readdirSync(dir, { recursive: true }).map((f) => join(dir, String(f)))),
  ];
  return sources.some((f) => statSync(f).mtimeMs > built);
}

/** Held while one test file builds: test files run in parallel, and two builds into dist/ would race. */
const BUILD_LOCK = join('node_modules', '.cache', 'vigil-build.lock');

async function holdingBuildLock(build: () => Promise<void>): Promise<void> {
  mkdirSync(dirname(BUILD_LOCK), { recursive: true });
  for (const deadline = Date.now() + 300_000; ; ) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    await build();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/**
 * `npm run build`, the step `npm ci` runs through `prepare`, when the build is older than the sources. Not
 * rebuilding a fresh build keeps a compile burst from starving the timing-sensitive tests running alongside.
 */
export async function buildIfStale(): Promise<void> {
  if (!buildIsStale()) return;
  await holdingBuildLock(async () => {
    // Another test file may have built while this one waited.
    if (!buildIsStale()) return;
    await promisify(execFile)('npm', ['run', 'build'], { cwd: process.cwd(), timeout: 240_000 });
  });
}

/** `npm run <script>` with only `env` (plus what a shell needs to find node, and JSON logs). */
export function runNpm(script: 'start' | 'demo', env: Record<string, string>): NpmProcess {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: process.cwd(),
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
  return { child, stdout, stderr, exited, stop };
}
