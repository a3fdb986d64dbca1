/** Calling the fake Slack's Web API the two ways Slack accepts: form-encoded or JSON with a bearer token. */
import { DEFAULT_BOT_TOKEN, type FakeSlack } from '../../../src/sim/slack/index.js';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function callForm(
  fake: FakeSlack,
  method: string,
  args: Record<string, unknown>,
  token: string | null = DEFAULT_BOT_TOKEN,
): Promise<ApiAnswer> {
  const form = new URLSearchParams();
  if (token !== null) form.set('token', token);
  for (const [k, v] of Object.entries(args)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const res = await fetch(`${fake.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

export async function callJson(
  fake: FakeSlack,
  method: string,
  args: Record<string, unknown>,
  token: string | null = DEFAULT_BOT_TOKEN,
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${fake.apiUrl}${method}`, { method: 'POST', headers, body: JSON.stringify(args) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

export function section(text: string, blockId?: string): Record<string, unknown> {
  return { type: 'section', ...(blockId ? { block_id: blockId } : {}), text: { type: 'mrkdwn', text } };
}
