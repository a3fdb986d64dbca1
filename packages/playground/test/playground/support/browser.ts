/**
 * The playground as a browser meets it: `npm start` with nothing set (built first when stale), Debian's
 * Chromium headless with a fresh profile, and every script error or console error of the page collected.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildIfStale, startVigilProcess, type VigilProcess } from './process.js';

const CHROMIUM = '/usr/bin/chromium';
/** Where the browser tests put their screenshots. */
export const SHOTS = join(process.cwd(), 'test-output', 'playground');
// Without these, Chromium on a machine with no internet keeps dialling Google's services.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface PlaygroundInBrowser {
  vigil: VigilProcess;
  browser: Browser;
  page: Page;
  /** `pageerror: …` and `console: …` lines, in order. */
  pageErrors: string[];
}

export async function openPlaygroundInBrowser(context: {
  viewport: { width: number; height: number };
  timezoneId: string;
}): Promise<PlaygroundInBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  await mkdir(SHOTS, { recursive: true });
  await buildIfStale();
  const vigil = await startVigilProcess({ PORT: '0' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await (await browser.newContext(context)).newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(`console: ${msg.text()}`);
  });
  return { vigil, browser, page, pageErrors };
}

/**
 * The playground in Chromium for one test file: opened before its tests, closed after them. The fields are
 * filled once the browser is up (read them inside tests).
 */
export function usePlaygroundInBrowser(
  context: Parameters<typeof openPlaygroundInBrowser>[0],
): PlaygroundInBrowser {
  const opened = {} as PlaygroundInBrowser;
  beforeAll(async () => {
    Object.assign(opened, await openPlaygroundInBrowser(context));
  }, 300_000);
  afterAll(async () => {
    await opened.browser?.close();
    await opened.vigil?.stop();
  }, 30_000);
  return opened;
}
