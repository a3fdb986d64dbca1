/**
 * Asking the affected person in the playground, in headless Chromium (Debian's) against `npm start` with
 * nothing set: as @adam, `/vigil alerts add type:leaked_credential ask-person:on` in #general; then, as @dana
 * (the employee's page, a second person), a password of hers leaks; Vigil's DM reaches her, the address
 * masked and no password in it; she clicks *I've changed it since*; back in #general as @adam, her answer is
 * a reply in the alert's thread. Screenshots go to test-output/playground/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPlaygroundInBrowser, SHOTS } from './support/browser.js';
import type { VigilProcess } from './support/process.js';

let vigil: VigilProcess;
let browser: Browser;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  ({ vigil, browser, page, pageErrors } = await openPlaygroundInBrowser({
    viewport: { width: 1280, height: 900 },
    timezoneId: 'UTC',
  }));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await vigil?.stop();
}, 30_000);

describe('the employee asked, in the playground', () => {
  it('sees the masked DM, answers as herself, and the answer is in the alert’s thread', async () => {
    await page.goto(vigil.url);
    const composer = page.locator('#composer-input');
    await composer.waitFor({ timeout: 20_000 });
    await composer.fill('/vigil alerts add type:leaked_credential ask-person:on');
    await composer.press('Enter');
    await page.locator('.msg', { hasText: /asked privately/ }).waitFor({ timeout: 20_000 });

    // Now as @dana: her DM with Vigil, and a password of hers leaks.
    await page.locator('#person-link').click();
    await page.locator('#person-title').waitFor({ timeout: 20_000 });
    await page.locator('#person-leak').click();
    const changed = page.locator('#person-messages button[data-action-id="ask_person_changed"]');
    await changed.waitFor({ timeout: 90_000 });
    const dm = (await page.locator('#person-messages').textContent()) ?? '';
    expect(dm).toContain('d•••@');
    expect(dm).not.toContain('dana.smith@');
    expect(dm).toContain('Vigil never shows the password');
    expect(await page.locator('#person-messages button[data-action-id^="ask_person_"]').count()).toBe(3);
    await page.screenshot({ path: join(SHOTS, 'ask-person-1-dm.png') });

    await changed.click();
    await expect
      .poll(() => page.locator('#person-messages').textContent(), { timeout: 20_000 })
      .toContain("You answered I've changed it since");
    expect(await page.locator('#person-messages button[data-action-id^="ask_person_"]').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'ask-person-2-answered.png') });

    // Back as @adam in #general: the alert, and her answer in its thread.
    await page.goto(vigil.url);
    const reply = page.locator('.msg', { has: page.locator('.in-thread'), hasText: 'changed since' });
    await reply.waitFor({ timeout: 30_000 });
    expect(await reply.textContent()).toMatch(/@dana: changed since · \d\d:\d\d \(d•••@/);
    await expect
      .poll(() => page.locator('.msg', { hasText: 'playground_combolist_1' }).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'ask-person-3-thread.png') });
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
