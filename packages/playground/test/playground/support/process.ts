/** The playground as README says to open it (`npm start` with nothing set, or `npm run demo`), and its URL. */
import { type NpmProcess, runNpm } from '../../../../../test/support/launcher.js';

export { buildIfStale } from '../../../../../test/support/launcher.js';

export interface VigilProcess extends NpmProcess {
  /** The playground page, from the "playground ready" log line. */
  url: string;
}

export async function startVigilProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
  script: 'start' | 'demo' = 'start',
): Promise<VigilProcess> {
  const npm = runNpm(script, env);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = npm.stdout.find((l) => l.includes('playground ready'));
    if (line) return { ...npm, url: (JSON.parse(line) as { url: string }).url };
    if (npm.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await npm.stop();
  throw new Error(
    `Vigil did not report its playground URL:\n${npm.stdout.join('\n')}\n${npm.stderr.join('\n')}`,
  );
}
