/**
 * Vigil as operators run it, in its own process, configured only by environment variables (README, "Configuration"). One
 * process, no tsx wrapper in between, so a signal (SIGTERM, SIGKILL) reaches the very process under test.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface VigilProcess {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

/** `args`: a command such as `rotate-key`; none starts Vigil. */
export function runVigil(env: Record<string, string>, args: readonly string[] = []): VigilProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: process.cwd(),
    // Only what the test gives, plus PATH/HOME so node can start, and JSON logs (the tests read them).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (d: string) => stdout.push(...d.split('\n').filter(Boolean)));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => stderr.push(...d.split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout, stderr, exited };
}

/** The first line matching `pattern`, waiting for it (process start-up takes seconds on a loaded machine). */
export async function waitForLine(lines: string[], pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    const hit = lines.find((l) => pattern.test(l));
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no line matching ${pattern} in:\n${lines.join('\n')}`);
}

/**
 * Starts Vigil and waits for its "vigil started" line: the process (added to `children`, for the test to
 * kill at the end) and the URL it listens on.
 */
export async function startVigilProcess(
  env: Record<string, string>,
  children: ChildProcess[],
): Promise<{ child: ChildProcess; url: string }> {
  const vigil = runVigil(env);
  children.push(vigil.child);
  const started = JSON.parse(await waitForLine(vigil.stdout, /"vigil started"/)) as { port: number };
  return { child: vigil.child, url: `http://127.0.0.1:${started.port}` };
}
