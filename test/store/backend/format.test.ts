/**
 * Every record carries its format and the store its own: records of release 0.1.0 (no format) read as
 * format 1, a record of a newer format is unreadable rather than misread, and a store stamped by a newer
 * release stops start-up with one line.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VIGIL_VERSION } from '../../../src/kernel/version.js';
import { StoreCorruptionError } from '../../../src/store/backend/errors.js';
import { StoreFormatError } from '../../../src/store/backend/format.js';
import { runVigil } from '../../support/vigil-process.js';
import { BACKENDS, rawEntries, useStoreFixture, writeRaw } from '../support/backends.js';

/** The store format this release writes (moves only with a migration, in CHANGELOG). */
const STORE_FORMAT = 3;

describe.each(BACKENDS)('store and record formats on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('stamps the store with its format and this release, and every record with its format', async () => {
    const store = await fixture.open();
    await store.namespace('alpha').set('plain', { n: 1 });
    await store.namespace('beta', 3).set('later', { n: 2 }, 60_000);
    const raw = Object.fromEntries((await rawEntries(fixture, kind)).map((e) => [e.key, e.value]));
    expect(JSON.parse(raw['vigil:meta:format'] ?? '{}')).toMatchObject({
      value: { format: STORE_FORMAT, release: VIGIL_VERSION },
    });
    expect(JSON.parse(raw['vigil:alpha:plain'] ?? '{}')).toMatchObject({ value: { n: 1 }, f: 1 });
    expect(JSON.parse(raw['vigil:beta:later'] ?? '{}')).toMatchObject({ f: 3 });
  });

  it('reads a record without a format as format 1, and one of a newer format as unreadable', async () => {
    const store = await fixture.open();
    await writeRaw(fixture, kind, 'vigil:alpha:old', JSON.stringify({ value: { n: 1 }, expires: null }));
    await writeRaw(fixture, kind, 'vigil:alpha:new', JSON.stringify({ value: { n: 2 }, f: 2 }));
    const ns = store.namespace('alpha');
    expect(await ns.get('old')).toEqual({ n: 1 });
    const error = await ns.get('new').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreCorruptionError);
    expect(String(error)).toContain('written by a newer release (record format 2; this build reads up to 1)');
  });

  it('refuses to open a store stamped by a newer release', async () => {
    await (await fixture.open()).close();
    const future = { value: { format: STORE_FORMAT + 1, release: '9.0.0' } };
    await writeRaw(fixture, kind, 'vigil:meta:format', JSON.stringify(future));
    const error = await fixture.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFormatError);
    expect(String(error)).toMatch(
      new RegExp(`written by Vigil 9\\.0\\.0 \\(store format ${STORE_FORMAT + 1}\\); Vigil ${VIGIL_VERSION}`),
    );
  });
});

describe('a newer store at start-up', () => {
  const fixture = useStoreFixture('sqlite');

  it('stops Vigil with one line naming both releases', async () => {
    await (await fixture.open()).close();
    const future = { value: { format: STORE_FORMAT + 1, release: '9.0.0' } };
    await writeRaw(fixture, 'sqlite', 'vigil:meta:format', JSON.stringify(future));
    const vigil = runVigil({
      SLACK_BOT_TOKEN: 'xoxb-never-used',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      VIGIL_STORE: `sqlite://${join(fixture.dir, 'vigil.sqlite')}`,
      VIGIL_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      PORT: '0',
    });
    expect(await vigil.exited).toBe(1);
    expect(vigil.stderr).toHaveLength(1);
    expect(JSON.parse(vigil.stderr[0] ?? '')).toMatchObject({
      level: 'error',
      msg: expect.stringMatching(/^Vigil failed to start: the store .* Vigil 9\.0\.0/),
    });
    expect(vigil.stdout.join('\n')).not.toContain('vigil started');
  });
});

describe('the release version', () => {
  it('is the same in package.json and the build, and has its CHANGELOG entry', async () => {
    const pkg = JSON.parse(await readFile(join(process.cwd(), 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(pkg.version).toBe(VIGIL_VERSION);
    const changelog = await readFile(join(process.cwd(), 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(
      new RegExp(`^## \\[${VIGIL_VERSION.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });
});
