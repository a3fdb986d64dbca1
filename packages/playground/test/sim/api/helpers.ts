/** Plain-fetch helpers for driving the simulated API in tests (deliberately not the project's client). */

import { ManualClock } from '../../../../../test/support/manual-clock.js';
import { type SimApi, type StartSimApiOptions, startSimApi } from '../../../src/sim/api/index.js';

export interface Harness {
  sim: SimApi;
  clock: ManualClock;
}

export async function startHarness(opts: StartSimApiOptions = {}): Promise<Harness> {
  const clock = new ManualClock();
  const sim = await startSimApi({ clock, ...opts });
  return { sim, clock };
}

export async function tokenFor(sim: SimApi, keyIndex = 0, tenantId?: number): Promise<string> {
  const key = sim.keys[keyIndex];
  if (!key) throw new Error(`no key ${keyIndex}`);
  const res = await fetch(`${sim.url}/tokens/generate`, {
    method: 'POST',
    headers: { authorization: key.apiKey, 'content-type': 'application/json' },
    body: tenantId === undefined ? null : JSON.stringify({ tenant_id: tenantId }),
  });
  if (res.status !== 200) throw new Error(`token generation failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary JSON bodies.
  body: any;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export async function call(
  sim: SimApi,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | null = null;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== null) headers['content-type'] ??= 'application/json';
  return answer(await fetch(`${sim.url}${path}`, { method, headers, body }));
}

export const v4 = (sim: SimApi, path: string): string => `/${sim.state.family}/v4${path}`;
export const v2 = (sim: SimApi, path: string): string => `/${sim.state.family}/v2${path}`;

/** Follows `next` until it is null; returns every page. */
export async function walk(
  fetchPage: (from: string | undefined) => Promise<Answer>,
  maxPages = 500,
): Promise<Answer[]> {
  const pages: Answer[] = [];
  let from: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await fetchPage(from);
    if (page.status !== 200) throw new Error(`page ${i}: ${page.status} ${page.text}`);
    pages.push(page);
    if (page.body.next === null) return pages;
    from = page.body.next;
  }
  throw new Error('too many pages');
}
