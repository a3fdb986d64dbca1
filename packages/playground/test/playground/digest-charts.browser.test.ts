/**
 * A digest's trend in the playground, in headless Chromium (Debian's) against `npm start` with nothing set:
 * `/vigil digest add always`, then "Run digests now"; the posted digest opens with the "what changed"
 * paragraph, shows the severity chart (SVG, one line per severity, the legend) and the top identifiers table,
 * and the same numbers in words. The screenshot goes to test-output/playground/digest.png (docs/images/ keeps
 * a copy for the README).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHOTS, usePlaygroundInBrowser } from './support/browser.js';

const pg = usePlaygroundInBrowser({
  viewport: { width: 1280, height: 1400 },
  timezoneId: 'UTC',
});

describe('a digest in the playground', () => {
  it('shows the what-changed paragraph, the chart and the table', async () => {
    await pg.page.goto(pg.vigil.url);
    const composer = pg.page.locator('#composer-input');
    await composer.waitFor({ timeout: 20_000 });
    await composer.fill('/vigil digest add always');
    await composer.press('Enter');
    await pg.page.locator('.msg', { hasText: /created: it posts in #general/ }).waitFor({ timeout: 20_000 });
    await pg.page.locator('#run-digests').click();
    const digest = pg.page.locator('.msg-channel', { hasText: 'Vigil digest' }).last();
    await digest.waitFor({ timeout: 30_000 });

    const text = (await digest.textContent()) ?? '';
    expect(text).toMatch(/Since yesterday: \d+ new events?/);
    const chart = digest.locator('.bk-data-visualization');
    expect(await chart.locator('.dv-title').textContent()).toBe('New events by severity, last 14 days');
    expect(await chart.locator('svg polyline').count()).toBeGreaterThan(0);
    expect(await chart.locator('.dv-legend-item').count()).toBe(await chart.locator('svg polyline').count());
    const table = digest.locator('.bk-data-table');
    expect(await table.locator('caption').textContent()).toBe('Top identifiers today');
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Identifier',
      'Events',
      'Highest severity',
      'Last seen',
    ]);
    const shown = await table.locator('tbody tr:not([hidden])').count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(5);

    // The chart's last point, the table's events and the paragraph say the same total.
    const total = Number(/Since yesterday: (\d+) new event/.exec(text)?.[1]);
    const events = await table.locator('tbody tr td.dt-num').allTextContents();
    expect(events.reduce((n, t) => n + Number(t), 0)).toBe(total);
    expect(text).toMatch(new RegExp(`Last 14 days:.* ${total}\\s*Top identifiers:`));

    // The digest from its header, below the page's own bar, down to its events.
    await digest.evaluate((el) =>
      (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }),
    );
    await pg.page.locator('#timeline').evaluate((t) => {
      (t as unknown as { scrollTop: number }).scrollTop -= 140;
    });
    await pg.page.mouse.move(0, 0);
    const box = await digest.boundingBox();
    if (box === null) throw new Error('the digest is not on the page');
    await pg.page.screenshot({
      path: join(SHOTS, 'digest.png'),
      clip: { x: box.x, y: box.y, width: Math.min(box.width, 900), height: Math.min(box.height, 1000) },
    });
    expect(pg.pageErrors).toEqual([]);
  }, 120_000);
});
