/**
 * Asking the affected person in the playground, in headless Chromium (Debian's) against `npm start` with
 * nothing set: as @adam, `/vigil alerts add type:leaked_credential ask-person:on` in #general; then, as @dana
 * (the employee's page, a second person), a password of hers leaks; Vigil's DM reaches her, the address
 * masked and no password in it; she clicks *I've changed it since*; back in #general as @adam, her answer is
 * a reply in the alert's thread. Screenshots go to test-output/playground/.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHOTS, usePlaygroundInBrowser } from './support/browser.js';

const pg = usePlaygroundInBrowser({
  viewport: { width: 1280, height: 900 },
  timezoneId: 'UTC',
});

describe('the employee asked, in the playground', () => {
  it('sees the masked DM, answers as herself, and the answer is in the alert’s thread', async () => {
    await pg.page.goto(pg.vigil.url);
    const composer = pg.page.locator('#composer-input');
    await composer.waitFor({ timeout: 20_000 });
    await composer.fill('/vigil alerts add type:leaked_credential ask-person:on');
    await composer.press('Enter');
    await pg.page.locator('.msg', { hasText: /asked privately/ }).waitFor({ timeout: 20_000 });

    // Now as @dana: her DM with Vigil, and a password of hers leaks.
    await pg.page.locator('#person-link').click();
    await pg.page.locator('#person-title').waitFor({ timeout: 20_000 });
    await pg.page.locator('#person-leak').click();
    const changed = pg.page.locator('#person-messages button[data-action-id="ask_person_changed"]');
    await changed.waitFor({ timeout: 90_000 });
    const dm = (await pg.page.locator('#person-messages').textContent()) ?? '';
    expect(dm).toContain('d•••@');
    expect(dm).not.toContain('dana.smith@');
    expect(dm).toContain('Vigil never shows the password');
    expect(await pg.page.locator('#person-messages button[data-action-id^="ask_person_"]').count()).toBe(3);
    await pg.page.screenshot({ path: join(SHOTS, 'ask-person-1-dm.png') });

    await changed.click();
    await expect
      .poll(() => pg.page.locator('#person-messages').textContent(), { timeout: 20_000 })
      .toContain("You answered I've changed it since");
    expect(await pg.page.locator('#person-messages button[data-action-id^="ask_person_"]').count()).toBe(0);
    await pg.page.screenshot({ path: join(SHOTS, 'ask-person-2-answered.png') });

    // Back as @adam in #general: the alert, and her answer in its thread.
    await pg.page.goto(pg.vigil.url);
    const reply = pg.page.locator('.msg', { has: pg.page.locator('.in-thread'), hasText: 'changed since' });
    await reply.waitFor({ timeout: 30_000 });
    expect(await reply.textContent()).toMatch(/@dana: changed since · \d\d:\d\d \(d•••@/);
    await expect
      .poll(() => pg.page.locator('.msg', { hasText: 'playground_combolist_1' }).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await pg.page.screenshot({ path: join(SHOTS, 'ask-person-3-thread.png') });
    expect(pg.pageErrors).toEqual([]);
  }, 240_000);
});
