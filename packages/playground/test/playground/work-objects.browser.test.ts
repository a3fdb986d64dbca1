/**
 * Work Objects in the playground, in headless Chromium (Debian's) against `npm start` with nothing set: the
 * portal link of an event the search showed, pasted in #general, becomes the event's card; clicking the
 * card opens the side panel Vigil presents for the playground user (an admin), and its Snooze button
 * snoozes the event and shows who snoozed it. Screenshots go to test-output/playground/.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHOTS, usePlaygroundInBrowser } from './support/browser.js';

const pg = usePlaygroundInBrowser({
  viewport: { width: 1280, height: 860 },
  timezoneId: 'UTC',
});

const composer = () => pg.page.locator('#composer-input');

describe('a portal link in the playground', () => {
  it('unfurls to the event’s card, and the card opens the side panel for the playground user', async () => {
    await pg.page.goto(pg.vigil.url);
    await expect.poll(() => pg.page.locator('.msg-welcome').textContent()).toContain('Links to events');
    // A search shows events (Vigil remembers their portal links); take the first one's link.
    const example = pg.page
      .locator('.msg-welcome code', { hasText: /^\/vigil events \d+ severity:/ })
      .first();
    await example.click();
    await composer().press('Enter');
    const link = pg.page.locator('#timeline a', { hasText: 'Open in portal' }).first();
    await link.waitFor({ timeout: 20_000 });
    const url = (await link.getAttribute('href')) ?? '';
    expect(url).toMatch(/^https:\/\/app\.flare\.io\//);

    await composer().fill(`Is this one ours? ${url}`);
    await composer().press('Enter');
    const card = pg.page.locator('.msg .wo-card').last();
    await card.waitFor({ timeout: 20_000 });
    const cardText = (await card.textContent()) ?? '';
    expect(cardText).toContain('Threat-intel event');
    expect(cardText).toMatch(/Severity/);
    expect(cardText).toMatch(/Open|Ignored|Remediated/);
    await pg.page.screenshot({ path: join(SHOTS, 'wo-1-card.png') });

    await card.click();
    const panel = pg.page.locator('#flexpane');
    await expect.poll(() => panel.isVisible(), { timeout: 20_000 }).toBe(true);
    await expect
      .poll(() => panel.locator('.wo-title').first().textContent())
      .toBe(await card.locator('.wo-title').textContent());
    // The playground user is an admin: actions and the panel's own fields are there.
    expect(await panel.locator('[data-entity-action="vigil_entity_explain"]').count()).toBe(1);
    expect(await panel.locator('[data-field="seen_at"]').count()).toBe(1);
    await pg.page.screenshot({ path: join(SHOTS, 'wo-2-panel.png') });

    await panel.locator('[data-entity-action="vigil_entity_snooze_1d"]').click();
    await expect
      .poll(() => panel.locator('[data-field="snoozed_by"]').textContent(), { timeout: 20_000 })
      .toContain('@adam');
    expect(await panel.locator('[data-entity-action="vigil_entity_unsnooze"]').count()).toBe(1);
    await pg.page.screenshot({ path: join(SHOTS, 'wo-3-snoozed.png') });

    await panel.locator('[data-flexpane-close]').click();
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(pg.pageErrors).toEqual([]);
  }, 120_000);
});
