/**
 * The Slackbot panel in headless Chromium (Debian's) against `npm start` with nothing set: the visitor clicks
 * a suggested question, the playground calls Vigil's MCP tool over `/mcp` as the playground's person (Slack
 * identity auth), and the page shows the tool used, its text and its Block Kit; a typed question likewise.
 * Screenshots go to test-output/playground/.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHOTS, usePlaygroundInBrowser } from './support/browser.js';

const pg = usePlaygroundInBrowser({
  viewport: { width: 1280, height: 900 },
  timezoneId: 'UTC',
});

describe('Slackbot with Vigil’s MCP tools, in the playground', () => {
  it('answers a suggested question with a real tool result and its Block Kit', async () => {
    await pg.page.goto(pg.vigil.url);
    await pg.page.locator('a[href="/playground/slackbot"]').click();
    await pg.page.waitForURL(/\/playground\/slackbot$/);
    await expect
      .poll(() => pg.page.locator('#tools-summary').textContent(), { timeout: 20_000 })
      .toMatch(/\(12, from tools\/list\)/);
    const first = pg.page.locator('#suggestions button').first();
    expect(await first.textContent()).toMatch(/^What's new on /);
    await first.click();

    const answer = pg.page.locator('.slackbot-answer[data-tool]').first();
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.getAttribute('data-tool')).toBe('search_events');
    expect(await answer.locator('.slackbot-used').textContent()).toContain('Used Vigil › search_events');
    expect(await answer.locator('.slackbot-text').textContent()).toMatch(/Events 1/);
    // The tool's Block Kit, drawn by the playground's renderer: the rows with their buttons.
    const blocks = answer.locator('.slackbot-blocks');
    await blocks.waitFor();
    expect(await blocks.textContent()).toContain('Ignore');
    await pg.page.screenshot({ path: join(SHOTS, 'slackbot-1-search.png') });

    await pg.page.locator('#slackbot-input').fill('Is Vigil connected, and how much search quota is left?');
    await pg.page.locator('#slackbot-input').press('Enter');
    const status = pg.page.locator('.slackbot-answer[data-tool="get_status"]');
    await status.waitFor({ timeout: 30_000 });
    expect(await status.locator('.slackbot-text').textContent()).toMatch(/connected/i);
    await pg.page.screenshot({ path: join(SHOTS, 'slackbot-2-status.png') });
    expect(pg.pageErrors).toEqual([]);
  }, 120_000);
});
