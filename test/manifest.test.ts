/**
 * manifest.yml against Slack's published app manifest schema (slackapi/manifest-schema, vendored in
 * test/fixtures/slack-manifest-schema), and against what Vigil registers: every step it declares has a
 * listener, and every declared output a type the fake Slack checks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type AjvModule from 'ajv';
import type addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { BOT_SCOPES } from '../src/app/bolt-app.js';
import { STEP_IDS } from '../src/features/workflow-steps/index.js';
import { OPTIONAL_SCOPES } from '../src/slack/granted-scopes.js';
import { readManifest } from './support/manifest.js';

const FIXTURES = new URL('./fixtures/slack-manifest-schema/', import.meta.url);
const VERSIONED_URL = 'https://raw.githubusercontent.com/slackapi/manifest-schema/v0.5.0/schemas/';

function schema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as Record<string, unknown>;
}

/** The main schema, with the versioned schemas it points at registered under the URLs it names. */
function validator() {
  const require = createRequire(import.meta.url);
  const Ajv = (require('ajv') as typeof AjvModule).default;
  const addFormats = (require('ajv-formats') as typeof addFormatsModule).default;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const version of ['1.0.0', '2.0.0']) {
    const file = `manifest.schema.${version}.json`;
    ajv.addSchema({ ...schema(file), $id: `${VERSIONED_URL}${file}` });
  }
  return ajv.compile(schema('manifest.schema.json'));
}

describe('manifest.yml', () => {
  it("passes Slack's published manifest schema", () => {
    const validate = validator();
    const ok = validate(readManifest());
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('is refused by the same schema when a step lacks its outputs (the check can fail)', () => {
    const manifest = readManifest() as { functions: Record<string, Record<string, unknown>> };
    const { output_parameters: _gone, ...step } = manifest.functions.search_events ?? {};
    manifest.functions.search_events = step;
    expect(validator()(manifest)).toBe(false);
  });

  it('asks for the scopes the OAuth install asks for, and runs its steps in Vigil', () => {
    const manifest = readManifest() as {
      oauth_config: { scopes: { bot: string[]; bot_optional: string[] } };
      settings: Record<string, unknown> & { event_subscriptions: { bot_events: string[] } };
      functions: Record<string, unknown>;
    };
    const { bot, bot_optional } = manifest.oauth_config.scopes;
    expect([...bot, ...bot_optional]).toEqual(BOT_SCOPES);
    // The optional ones are those whose features GrantedScopes turns off when declined.
    expect(bot_optional).toEqual(Object.keys(OPTIONAL_SCOPES));
    expect(manifest.settings.function_runtime).toBe('remote');
    expect(manifest.settings.org_deploy_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events).toContain('function_executed');
    expect(Object.keys(manifest.functions).sort()).toEqual([...STEP_IDS].sort());
  });
});
