/**
 * What "inert" means for AI text converted from Markdown, where formatting is now wanted: no mention,
 * broadcast or control sequence but date tokens and http(s) links whose label shows their host; nothing
 * else Slack could link; code that closes where it opens.
 */
import { mrkdwnTexts } from '../../../support/mrkdwn-scan.js';
import { linkable } from './message-safety.js';

const DATE_TOKEN = /<!date\^\d+\^[^<>|^]*\|[^<>|]*>/g;
const LINK = /<(https?:\/\/[^\s<>|]+)\|([^<>]*)>/g;
const FENCED = /```\n[\s\S]*?\n```/g;
const CODE_SPAN = /`[^`\n]+`/g;

export function inertMarkdownProblems(message: { text: string; blocks: unknown[] }): string[] {
  const problems: string[] = [];
  for (const value of mrkdwnTexts(message)) {
    const where = JSON.stringify(value.slice(0, 200));
    if ((value.match(/```/g) ?? []).length % 2 !== 0) problems.push(`unclosed code block in ${where}`);
    let rest = value.replace(DATE_TOKEN, ' ').replace(LINK, (_whole, href: string, label: string) => {
      const host = new URL(href.replaceAll('&amp;', '&')).hostname.toLowerCase();
      if (!label.toLowerCase().includes(host)) problems.push(`link label hides its host ${host} in ${where}`);
      return ' ';
    });
    // Code included: Slack reads a raw < as a control sequence even there.
    if (/[<>]/.test(rest)) problems.push(`raw < or > (a control sequence) in ${where}`);
    if (/&(?!(?:amp|lt|gt);)/.test(rest)) problems.push(`raw & in ${where}`);
    rest = rest.replace(FENCED, ' ');
    for (const line of rest.split('\n')) {
      if ((line.match(/`/g) ?? []).length % 2 !== 0) problems.push(`unclosed code span in ${where}`);
    }
    // Inside code Slack neither links nor formats; outside it nothing may link.
    rest = rest.replace(CODE_SPAN, ' ');
    for (const l of linkable(rest)) problems.push(`linkable ${JSON.stringify(l)} in ${where}`);
  }
  return problems;
}
