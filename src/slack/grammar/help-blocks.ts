/** Pure Block Kit for help and usage errors, from the parser's structured help. */
import type { KnownBlock } from '@slack/types';
import { renderBudgeted } from '../kit/budget.js';
import { ownContext, ownSection, type RenderedMessage } from '../kit/kit.js';
import type { Subcommand, UsageError } from './command.js';
import { toMrkdwn } from './errors.js';
import type { HelpText } from './help.js';

/** @internal */
export function renderHelp(help: HelpText): RenderedMessage {
  const head: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: help.title } },
    ownSection(
      `\`${toMrkdwn(help.usage)}\`${help.adminOnly ? '  _(admins)_' : ''}\n${toMrkdwn(help.description)}`,
    ),
  ];
  const groups: KnownBlock[][] = [];
  if (help.subcommands?.length) {
    const lines = help.subcommands.map(
      (s) => `\`${toMrkdwn(s.usage)}\`${s.adminOnly ? ' _(admins)_' : ''}\n      ${toMrkdwn(s.summary)}`,
    );
    // Sections hold 3000 characters: split the list in chunks.
    for (let i = 0; i < lines.length; i += 8) groups.push([ownSection(lines.slice(i, i + 8).join('\n'))]);
  }
  for (const s of help.sections) {
    groups.push([ownSection(`*${toMrkdwn(s.title)}*\n${s.lines.map((l) => `• ${toMrkdwn(l)}`).join('\n')}`)]);
  }
  if (help.examples.length) {
    const lines = help.examples.map((e) => `\`${toMrkdwn(e.command)}\` — ${toMrkdwn(e.description)}`);
    for (let i = 0; i < lines.length; i += 10) {
      groups.push([ownSection(`${i === 0 ? '*Examples*\n' : ''}${lines.slice(i, i + 10).join('\n')}`)]);
    }
  }
  const tail = help.topic
    ? []
    : [
        ownContext(
          '`/vigil help <subcommand>` shows the details and examples of one subcommand. What you may use is set by the workspace (`/vigil settings`): searching events is open to full members, credentials, digests, alerts and actions to admins unless an admin opens them; guests only through a user group an admin opens.',
        ),
      ];
  const rendered = renderBudgeted({ text: toMrkdwn(`${help.title}: ${help.usage}`), head, groups, tail });
  return { text: rendered.text, blocks: rendered.blocks };
}

export function renderUsageError(error: UsageError): RenderedMessage {
  const blocks: KnownBlock[] = [
    ownSection(`:warning: ${toMrkdwn(error.message)}\n${toMrkdwn(error.hint)}`),
    ownContext(`Usage: \`${toMrkdwn(error.usage)}\`  ·  Example: \`${toMrkdwn(error.example)}\``),
  ];
  return { text: toMrkdwn(`${error.message} ${error.hint}`), blocks };
}

/** Help never changes while Vigil runs: each topic is rendered once (the ack path stays cheap). */
export function helpMessageOf(
  helpText: (topic?: Subcommand) => HelpText,
): (topic?: Subcommand) => RenderedMessage {
  const cache = new Map<string, RenderedMessage>();
  return (topic) => {
    const key = topic ?? '';
    let message = cache.get(key);
    if (!message) {
      message = renderHelp(helpText(topic));
      cache.set(key, message);
    }
    return message;
  };
}
