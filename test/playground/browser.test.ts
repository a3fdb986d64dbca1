/**
 * The playground as a new user meets it: `npm start` with nothing configured, the page in headless
 * Chromium, the welcome message's events example run as typed, Ignore clicked (the message updates in
 * place), a modal opened, the App Home shown. Screenshots go to test-output/playground/.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale, startVigilProcess, type VigilProcess } from './support/process.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(process.cwd(), 'test-output', 'playground');
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

let vigil: VigilProcess;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  await mkdir(SHOTS, { recursive: true });
  await buildIfStale();
  vigil = await startVigilProcess({ PORT: '0' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  // A fresh, empty profile for each run.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    timezoneId: 'Europe/Paris',
  });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(`console: ${msg.text()}`);
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (vigil) {
    await vigil.stop();
    // npm dies of the signal itself; Vigil under it must have stopped cleanly.
    expect(vigil.stdout.some((l) => l.includes('"vigil stopped"'))).toBe(true);
  }
}, 30_000);

/** The timeline entry (a message) holding `text`, the last one when several do. */
const entryWith = (text: string | RegExp) => page.locator('.msg', { hasText: text }).last();

describe('the playground in a browser', () => {
  it('says plainly that it is a playground, in the log and on the page', async () => {
    expect(vigil.stderr.join('\n')).toMatch(/playground/i);
    await page.goto(vigil.url);
    await expect.poll(() => page.locator('.banner').textContent()).toMatch(/Playground.*simulated Slack/s);
    await expect
      .poll(() => page.locator('.msg-welcome').textContent())
      .toContain('Welcome to the Vigil playground');
    await page.screenshot({ path: join(SHOTS, '1-welcome.png') });
  });

  it("runs the welcome message's events example as typed, then Ignore updates the message in place", async () => {
    const example = page.locator('.msg-welcome code', { hasText: /^\/vigil events \d+ severity:/ }).first();
    const command = (await example.textContent()) ?? '';
    await example.click();
    expect(await page.locator('#composer-input').inputValue()).toBe(command);
    await page.locator('#composer-input').press('Enter');

    const results = entryWith('Only visible to you').filter({
      has: page.locator('button', { hasText: 'Ignore' }),
    });
    await results.waitFor({ timeout: 15_000 });
    const entryId = await results.getAttribute('data-entry-id');
    expect(await results.textContent()).toMatch(/Events [0-9–]+ for identifier/i);
    await page.screenshot({ path: join(SHOTS, '2-events.png') });

    await results
      .locator('button', { hasText: /^Ignore$/ })
      .first()
      .click();
    const same = page.locator(`[data-entry-id="${entryId}"]`);
    await expect.poll(() => same.textContent(), { timeout: 15_000 }).toMatch(/Ignored by @adam/);
    await same.locator('text=Ignored by').first().scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(SHOTS, '3-ignored.png') });

    // The up arrow brings the command back.
    await page.locator('#composer-input').press('ArrowUp');
    expect(await page.locator('#composer-input').inputValue()).toBe(command);
    await page.locator('#composer-input').fill('');
  });

  it('opens a modal as an accessible dialog; Cancel closes it, Search submits its input', async () => {
    const example = page.locator('.msg-welcome code', { hasText: /^\/vigil events \d+ secret$/ }).first();
    const command = (await example.textContent()) ?? '';
    const open = async () => {
      await page.locator('#composer-input').fill(command);
      await page.locator('#composer-input').press('Enter');
      await page.getByRole('dialog').waitFor({ timeout: 15_000 });
    };
    await open();
    const dialog = page.getByRole('dialog');
    const labelledBy = await dialog.getAttribute('aria-labelledby');
    expect(labelledBy).toBeTruthy();
    expect(await page.locator(`[id="${labelledBy}"]`).textContent()).not.toBe('');
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(SHOTS, '4-modal.png') });
    await dialog.locator('.modal-foot [data-view-close]').click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });

    await open();
    const before = await page.locator('.msg').count();
    await page
      .getByRole('dialog')
      .locator('input.bk-input, textarea.bk-input')
      .first()
      .fill('AKIA3AA056DA5590E89A');
    await page.getByRole('dialog').locator('[data-view-submit]').click();
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10_000 });
    // The results arrive as a message only the requester sees.
    await expect.poll(() => page.locator('.msg').count(), { timeout: 15_000 }).toBeGreaterThan(before);
    expect(await page.locator('.msg').last().textContent()).toMatch(/Only visible to you/);
  });

  it('shows the App Home tab', async () => {
    await page.locator('#tab-home').click();
    await expect.poll(() => page.locator('#home').textContent(), { timeout: 15_000 }).toMatch(/Connected/);
    await page.screenshot({ path: join(SHOTS, '5-home.png') });
    await page.locator('#tab-messages').click();
  });

  it('had no script errors in the page, and no delivery failures to report', async () => {
    expect(pageErrors).toEqual([]);
    expect(await page.locator('.msg-note').allInnerTexts()).toEqual([]);
  });
});
