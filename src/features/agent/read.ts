/**
 * What a message in Vigil's DM asks for. Vigil has no language model: a message is read by the `/vigil` grammar,
 * or by a small, forgiving reading of plain requests that turns them into `/vigil` text the same grammar then
 * parses ("leaks for acme.example this week" is `creds domain acme.example since:7d`). Anything else is not
 * understood, and said so: never a guess that acts. Pure.
 */
import type { Command, Grammar, UsageError } from '../../slack/grammar/index.js';

export type Reading =
  /** A `/vigil` command, typed as such or read from a plain request (`text` is what it stands for). */
  | { kind: 'command'; command: Command; text: string; via: 'grammar' | 'plain' }
  /** "ignore that one": an action on the one event the conversation shows, through its own button. */
  | { kind: 'act-on-that'; action: 'ignore' | 'remediate' }
  /** "what is this": the explanation of the one event the conversation shows or links to. */
  | { kind: 'explain-that' }
  | { kind: 'help' }
  /** Grammar that did not parse: the grammar's own words say what is wrong. */
  | { kind: 'usage'; error: UsageError }
  | { kind: 'not-understood' };

/** Slack's markup in a message's text: mentions go, links and emails become the words they show. */
function plainOf(text: string): string {
  return text
    .replace(/<@[UW][A-Z0-9]+(?:\|[^>]*)?>/g, ' ')
    .replace(/<(?:mailto:)?[^|>]+\|([^>]+)>/g, '$1')
    .replace(/<(?:mailto:)?([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

const THAT = '(?:that|this|it)(?: one| event)?';
const ACT_ON_THAT = new RegExp(`^(?:please )?(ignore|dismiss|remediate|resolve) ${THAT}(?: please)?$`, 'i');
const EXPLAIN_THAT = new RegExp(`^(?:explain|what(?:'?s| is)|tell me about) ${THAT}$`, 'i');

/** A time phrase and the `since:` it stands for. */
const TIMES: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/\b(?:in the )?(?:last|past) (\d{1,3}) days?\b/i, (m) => `${m[1]}d`],
  [/\b(?:in the )?(?:last|past) (\d{1,3}) hours?\b/i, (m) => `${m[1]}h`],
  [/\b(?:this|last|past) week\b/i, () => '7d'],
  [/\b(?:this|last|past) month\b/i, () => '30d'],
  [/\b(?:today|last 24 ?h(?:ours)?)\b/i, () => '24h'],
  [/\byesterday\b/i, () => '2d'],
];

function takeTime(text: string): { rest: string; since: string | undefined } {
  for (const [re, since] of TIMES) {
    const m = re.exec(text);
    if (m)
      return {
        rest: `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.trim(),
        since: since(m),
      };
  }
  return { rest: text, since: undefined };
}

const SEVERITY = /\b(critical|high|medium|low)(?:[- ]severity)?\b/i;

function takeSeverity(text: string): { rest: string; severity: string | undefined } {
  const m = SEVERITY.exec(text);
  if (!m) return { rest: text, severity: undefined };
  return {
    rest: `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.trim(),
    severity: m[1]?.toLowerCase(),
  };
}

/** A value as one grammar word: quoted when it has spaces, quotes inside dropped. */
function word(value: string): string {
  const v = value.replace(/"/g, '').trim();
  return /\s/.test(v) ? `"${v}"` : v;
}

const LEAKS =
  /^(?:any |show |find |search )?(?:me )?(?:leak(?:s|ed)?|leaked credentials|credentials|creds|passwords|logins)(?: leaked)? (?:for|of|on|at|from|about|with) (\S+)$/i;
const NEWS =
  /^(?:what(?:'?s| is)(?: new| happening| up)?|anything new|any news|news|events|show(?: me)?(?: the)? events|alerts) (?:on|for|with|about|in|of) (.+)$/i;
const EVENTS_EVERYWHERE = /^(?:events|what(?:'?s| is) new|anything new)$/i;
const SIMPLE: readonly [RegExp, string][] = [
  [
    /^(?:(?:list|show)(?: me)? )?(?:my |our |the )?identifiers$|^what do we (?:watch|monitor)$/i,
    'identifiers',
  ],
  [/^(?:what(?:'?s| is) snoozed|(?:list |show )?(?:the )?snoozes)$/i, 'snoozes'],
  [/^(?:status|quota|am i connected|is vigil connected)$/i, 'status'],
];

/** `creds` by the kind of value: an email, a domain, else a username keyword. */
function credsText(value: string, since: string | undefined): string {
  const v = value.replace(/[.,;:!?]+$/, '');
  const type = v.includes('@') ? 'email' : /\.[a-z]{2,}$/i.test(v) ? 'domain' : 'keyword';
  return `creds ${type} ${word(v)}${since ? ` since:${since}` : ''}`;
}

function eventsText(target: string, since: string | undefined, severity: string | undefined): string {
  const name = target.replace(/[.,;:!?]+$/, '').trim();
  const everywhere = /^(?:everything|all|us|anything|all identifiers)$/i.test(name) || name === '';
  const what = everywhere ? 'all' : /^\d{1,12}$/.test(name) ? name : word(name);
  return `events ${what}${severity ? ` severity:${severity}` : ''}${since ? ` since:${since}` : ''}`;
}

/** A plain request as `/vigil` text, or undefined when it is not one Vigil reads. */
function plainToGrammar(text: string): string | undefined {
  const stripped = text.replace(/[?!.]+$/, '').trim();
  const { rest: noTime, since } = takeTime(stripped);
  const leaks = LEAKS.exec(noTime);
  if (leaks?.[1]) return credsText(leaks[1], since);
  const { rest, severity } = takeSeverity(noTime);
  const news = NEWS.exec(rest);
  // "What's new" is the last week unless a time is said.
  const newsSince = since ?? (/\bnew\b/i.test(rest) ? '7d' : undefined);
  if (news?.[1]) return eventsText(news[1], newsSince, severity);
  if (EVENTS_EVERYWHERE.test(rest) || (severity !== undefined && /^events$/i.test(rest)))
    return eventsText('all', newsSince, severity);
  for (const [re, grammar] of SIMPLE) if (re.test(rest)) return grammar;
  return undefined;
}

export function readRequest(grammar: Grammar, raw: string): Reading {
  const text = plainOf(raw);
  if (text === '' || /^(?:help|\?|what can you do)\??$/i.test(text)) return { kind: 'help' };
  const bare = text.replace(/[?!.]+$/, '');
  const act = ACT_ON_THAT.exec(bare);
  if (act?.[1])
    return { kind: 'act-on-that', action: /ignore|dismiss/i.test(act[1]) ? 'ignore' : 'remediate' };
  if (EXPLAIN_THAT.test(bare)) return { kind: 'explain-that' };
  const typed = /^\/?vigil\s+(.*)$/i.exec(text);
  const grammarText = typed?.[1] ?? text;
  const firstWord = grammarText.split(' ')[0]?.toLowerCase() ?? '';
  const parsed = grammar.parse(grammarText);
  if (parsed.ok) {
    if (parsed.command.kind === 'help') return { kind: 'help' };
    return { kind: 'command', command: parsed.command, text: grammarText, via: 'grammar' };
  }
  const plain = typed ? undefined : plainToGrammar(text);
  if (plain !== undefined) {
    const read = grammar.parse(plain);
    if (read.ok) return { kind: 'command', command: read.command, text: plain, via: 'plain' };
  }
  // Someone who typed a subcommand meant the grammar: its own words say what is wrong.
  if (typed || (grammar.subcommands as readonly string[]).includes(firstWord))
    return { kind: 'usage', error: parsed.error };
  return { kind: 'not-understood' };
}
