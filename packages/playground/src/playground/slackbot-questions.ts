/**
 * What the playground's Slackbot panel does with a question: Slackbot's model picks one of the MCP server's
 * tools and its arguments; the playground has no model, so a small, forgiving reading stands in for it
 * (a few words and the first domain or email), and the panel always shows which tool it chose and why.
 */

export interface ToolChoice {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface SuggestedQuestion {
  question: string;
  choice: ToolChoice;
}

const DOMAIN = /\b((?:[a-z0-9-]+\.)+[a-z]{2,})\b/i;
const EMAIL = /\b([a-z0-9._%+-]+@(?:[a-z0-9-]+\.)+[a-z]{2,})\b/i;

/** Pure: how far back the question looks, in the grammar's words. */
function sinceOf(q: string): string | undefined {
  if (/\btoday\b|\b24 ?h/i.test(q)) return '1d';
  if (/this week|past week|last week|7 ?d/i.test(q)) return '7d';
  if (/this month|past month|last month|30 ?d/i.test(q)) return '30d';
  return undefined;
}

function severityOf(q: string): string | undefined {
  if (/\bcritical\b/i.test(q)) return 'critical';
  if (/\b(high|severe|serious)\b/i.test(q)) return 'high';
  return undefined;
}

/** Pure: the tool and arguments a question reads as. */
export function chooseTool(question: string): ToolChoice {
  const q = question.trim();
  const since = sinceOf(q);
  const email = EMAIL.exec(q)?.[1];
  const domain = DOMAIN.exec(q.replace(EMAIL, ''))?.[1];
  if (/credential|password|leaked account|logins?\b/i.test(q) && (email || domain)) {
    return {
      tool: 'search_leaked_credentials',
      arguments: {
        by: email ? 'email' : 'domain',
        value: (email ?? domain) as string,
        ...(since ? { since } : {}),
      },
    };
  }
  if (/\b(status|quota|connected|connection)\b/i.test(q)) return { tool: 'get_status', arguments: {} };
  if (/snooz/i.test(q)) return { tool: 'list_snoozes', arguments: {} };
  if (/digest/i.test(q)) return { tool: 'list_digests', arguments: {} };
  if (/\b(identifiers?|monitor|watch)/i.test(q) && !domain)
    return { tool: 'list_identifiers', arguments: {} };
  const severity = severityOf(q);
  const stealer = /stealer|infostealer|infected/i.test(q);
  return {
    tool: 'search_events',
    arguments: {
      ...(domain ? { identifier: domain } : {}),
      ...(severity ? { severity } : {}),
      ...(since ? { since } : {}),
      ...(stealer ? { types: ['stealer_log'] } : {}),
    },
  };
}

/** The questions the panel offers, about the connected tenant's own identifier (its name as the API has it). */
export function suggestedQuestions(identifier: string): SuggestedQuestion[] {
  const asked = (question: string, choice = chooseTool(question)) => ({ question, choice });
  return [
    asked(`What's new on ${identifier}?`, { tool: 'search_events', arguments: { identifier } }),
    asked('Did any of our people show up in stealer logs this week?'),
    asked(`Which leaked credentials do we have for ${identifier}?`, {
      tool: 'search_leaked_credentials',
      arguments: {
        by: DOMAIN.test(identifier) ? 'domain' : 'keyword',
        value: identifier.replace(/\s+/g, ''),
      },
    }),
    asked('What do we monitor?'),
    asked('Is Vigil connected, and how much search quota is left?'),
  ];
}
