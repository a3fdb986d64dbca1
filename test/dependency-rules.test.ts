/**
 * The dependency rules of .dependency-cruiser.cjs can fail: the same rule set, cruised over a small tree that
 * breaks each rule once (and imports only types where a rule must not count them), reports exactly those
 * breaks. `npm run deps` applies the rules to the real tree.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Each file of the tree: a comment naming the break it makes (if any), then its imports. */
const TREE: Record<string, string> = {
  'src/main.ts': `
    import { start } from './app/start.js';
    // product-imports-no-package
    import { simulate } from '../packages/playground/src/sim/api.js';
    export const main = [start, simulate];`,
  'src/app/config.ts': 'export const config = 1;',
  'src/app/start.ts': `
    import { config } from './config.js';
    import { a } from '../features/a/index.js';
    export const start = [config, a];`,
  'src/kernel/clock.ts': `
    // kernel-imports-nothing-of-vigil
    import { call } from '../api/client.js';
    import type { Row } from '../domain/row.js';
    export const now = (): Row => call();`,
  'src/api/client.ts': `
    // api-client-knows-no-vigil-above-it, twice
    import { put } from '../store/repo.js';
    import { WebClient } from '@slack/web-api';
    export const call = () => put(new WebClient());`,
  'src/store/repo.ts': `
    // store-knows-no-vigil-above-it
    import { kit } from '../slack/kit.js';
    import type { Installation } from '@slack/bolt';
    export const put = (value: unknown, installation?: Installation) => [kit, value, installation].length;`,
  'src/slack/kit.ts': `
    // slack-plumbing-knows-no-product
    import { row } from '../domain/row.js';
    export const kit = row;`,
  'src/domain/row.ts': 'export const row = 1;\nexport type Row = number;',
  'src/domain/settings.ts': `
    // only-main-imports-app
    import { config } from '../app/config.js';
    export const settings = config;`,
  'src/domain/watch-service.ts': `
    // services-know-no-slack
    import { kit } from '../slack/kit.js';
    import type { WebClient } from '@slack/web-api';
    export const watch = (client: WebClient) => [kit, client];`,
  'src/domain/cycle-a.ts': `
    // no-circular (a cycle is reported once)
    import { b } from './cycle-b.js';
    export const a = () => b;`,
  'src/domain/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = () => a;",
  'src/features/a/index.ts': `
    // feature-imports-no-feature; a feature's listeners may use Slack
    import { b } from '../b/index.js';
    import { kit } from '../../slack/kit.js';
    export type A = number;
    export const a = [b, kit];`,
  'src/features/a/service.ts': `
    // services-know-no-slack
    import { App } from '@slack/bolt';
    export const app = App;`,
  'src/features/b/index.ts': 'export const b = 1;\nexport type B = number;',
  'src/features/c/index.ts': `
    // feature-imports-no-feature: a type crosses features too (declare what you call in deps.ts)
    import type { B } from '../b/index.js';
    export const c: B = 1;`,
  'src/web/server.ts': `
    // only-app-imports-features
    import { a } from '../features/a/index.js';
    export const server = a;`,
  'src/observability/metrics.ts': `
    // no-unresolvable
    import { gone } from './gone.js';
    export const metrics = gone;`,
  'packages/playground/src/sim/api.ts': `
    // simulators-import-no-product
    import { now } from '../../../../src/kernel/clock.js';
    import type { Row } from '../../../../src/domain/row.js';
    export const simulate = (): Row => now();`,
};

/** rule: from → to, for every break the tree makes (an installed package named by its name). */
const EXPECTED = [
  'api-client-knows-no-vigil-above-it: src/api/client.ts → @slack/web-api',
  'api-client-knows-no-vigil-above-it: src/api/client.ts → src/store/repo.ts',
  'feature-imports-no-feature: src/features/a/index.ts → src/features/b/index.ts',
  'feature-imports-no-feature: src/features/c/index.ts → src/features/b/index.ts',
  'kernel-imports-nothing-of-vigil: src/kernel/clock.ts → src/api/client.ts',
  'no-circular: src/domain/cycle-a.ts → src/domain/cycle-b.ts',
  'no-unresolvable: src/observability/metrics.ts → ./gone.js',
  'only-app-imports-features: src/web/server.ts → src/features/a/index.ts',
  'only-main-imports-app: src/domain/settings.ts → src/app/config.ts',
  'product-imports-no-package: src/main.ts → packages/playground/src/sim/api.ts',
  'services-know-no-slack: src/domain/watch-service.ts → src/slack/kit.ts',
  'services-know-no-slack: src/features/a/service.ts → @slack/bolt',
  'simulators-import-no-product: packages/playground/src/sim/api.ts → src/kernel/clock.ts',
  'slack-plumbing-knows-no-product: src/slack/kit.ts → src/domain/row.ts',
  'store-knows-no-vigil-above-it: src/store/repo.ts → src/slack/kit.ts',
].sort();

/** An installed package by its name, wherever node_modules is. */
const packageName = (path: string) => path.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, '$1');

let tree: string;

beforeAll(async () => {
  tree = await mkdtemp(join(tmpdir(), 'vigil-dependency-rules-'));
  for (const [path, text] of Object.entries(TREE)) {
    await mkdir(dirname(join(tree, path)), { recursive: true });
    await writeFile(join(tree, path), `${text.trim()}\n`);
  }
  // The installed @slack packages resolve as in the repository.
  await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
});

afterAll(async () => {
  await rm(tree, { recursive: true, force: true });
});

describe('dependency rules', () => {
  it('report every break of the fixture tree, each under its rule, and nothing else', async () => {
    const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
    const { output } = await cruise(['src', 'packages'], { ...options, baseDir: tree });
    const { summary } = output as ICruiseResult;

    const found = summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${packageName(v.to)}`).sort();
    expect(found).toEqual(EXPECTED);

    // Every rule of the rule set is proven here.
    const rules = new Set((options.ruleSet?.forbidden ?? []).map((rule) => rule.name));
    expect(new Set(summary.violations.map((v) => v.rule.name))).toEqual(rules);
    // Each rule says why.
    for (const rule of options.ruleSet?.forbidden ?? []) expect(rule.comment?.length).toBeGreaterThan(40);
  });
});
