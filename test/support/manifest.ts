/** manifest.yml as Slack reads it: the app's declarations, for the fake Slack and the schema check. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { FunctionDeclarations } from '../../packages/playground/src/sim/slack/index.js';

const MANIFEST = fileURLToPath(new URL('../../manifest.yml', import.meta.url));

/** The manifest, parsed (YAML → the JSON Slack's schema describes). */
export function readManifest(): Record<string, unknown> {
  return parse(readFileSync(MANIFEST, 'utf8')) as Record<string, unknown>;
}

/** The workflow steps the manifest declares (`functions`). */
export function manifestFunctions(): FunctionDeclarations {
  return (readManifest().functions ?? {}) as FunctionDeclarations;
}
