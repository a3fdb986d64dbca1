/**
 * The prompts the DM suggests, built from the workspace's own identifiers so each one works as typed, and the
 * answer to a message Vigil does not understand: what it can do, with two or three of those prompts. Every prompt
 * here is one the plain reading (read.ts) understands. Pure.
 */
import type { KnownBlock } from '@slack/types';
import { ownContext, ownSection } from '../../slack/kit/kit.js';
import { escapeMrkdwn, plainText } from '../../slack/kit/text.js';
import { mdCode } from './text.js';

export interface Prompt {
  title: string;
  message: string;
}

/** An identifier as the prompts need it. */
export interface PromptIdentifier {
  name: string;
  type: string;
  disabled: boolean;
}

/** Slack shows up to four prompts (assistant.threads.setSuggestedPrompts). */
const MAX_PROMPTS = 4;

/** Names that read well in a sentence: no quotes (the reading drops them), not too long. */
function usable(name: string): boolean {
  return name.trim() !== '' && !name.includes('"') && name.length <= 60;
}

/** Prompts for someone who may use Vigil: a domain's leaks, what is new on a named identifier, the critical. */
export function promptsFor(identifiers: readonly PromptIdentifier[]): Prompt[] {
  const active = identifiers.filter((i) => !i.disabled && usable(i.name));
  const domain = active.find((i) => i.type === 'domain');
  const named = active.find((i) => i !== domain);
  const prompts: Prompt[] = [];
  if (domain) {
    const name = plainText(domain.name, 60);
    prompts.push({ title: `Leaks for ${name}`, message: `leaks for ${name} this week` });
  }
  if (named) {
    const name = plainText(named.name, 60);
    prompts.push({ title: `What’s new on ${name}`, message: `what's new on ${name}` });
  }
  prompts.push({ title: 'Critical events this week', message: 'critical events this week' });
  prompts.push({ title: 'What can you do?', message: 'help' });
  return prompts.slice(0, MAX_PROMPTS);
}

/** For someone Vigil is not open to (a guest), or when the identifiers cannot be read: nothing of the workspace. */
export const GENERIC_PROMPTS: readonly Prompt[] = Object.freeze([
  { title: 'Is Vigil connected?', message: 'status' },
  { title: 'What can you do?', message: 'help' },
]);

/** Markdown: what Vigil understands, with a few prompts to try; nothing was done. */
export function capabilitiesMarkdown(prompts: readonly Prompt[], opening: string): string {
  const tries = prompts
    .filter((p) => p.message !== 'help')
    .slice(0, 3)
    .map((p) => `- ${mdCode(p.message)}`);
  return [
    opening,
    '',
    'I have no language model: I read `/vigil` commands (`events`, `creds`, `explain`, `identifiers`, `snoozes`, `status`…) and a few plain requests, and I never act on a guess.',
    ...(tries.length > 0 ? ['', 'Try one of these:', ...tries] : []),
  ].join('\n');
}

/** The same, as blocks at the bottom of the finished message (the stream's fallback too). */
export function capabilitiesBlocks(prompts: readonly Prompt[]): KnownBlock[] {
  const tries = prompts
    .filter((p) => p.message !== 'help')
    .slice(0, 3)
    .map((p) => `• ${escapeMrkdwn(p.message)}`);
  return [
    ownSection('Ask me about events and leaked credentials in plain words, or with any `/vigil` command.'),
    ...(tries.length > 0 ? [ownContext(`Try: \n${tries.join('\n')}`)] : []),
  ];
}
