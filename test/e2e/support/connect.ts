/**
 * Driving the connect flow like an admin's browser: `/vigil connect` in Slack, then GET and POST the page
 * Vigil links to, over the real port.
 */
import { expect } from 'vitest';
import type { ResponseUrlPost } from '../../../packages/playground/src/sim/slack/index.js';
import { getButton } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

/** The region value of the simulated API on the connect page. */
export const simHost = (stack: Stack): string => new URL(stack.sim.url).host;

/**
 * `VIGIL_PUBLIC_URL` defaults to `http://localhost:$PORT`, and the stack listens on port 0: the link carries
 * the configured origin, the test reaches the same path on the real port.
 */
export function reachable(stack: Stack, linkUrl: string): string {
  const url = new URL(linkUrl);
  return `${stack.vigil.url}${url.pathname}`;
}

/** Runs `/vigil connect` as `userId` and returns the response_url post that answers it. */
export async function requestConnect(
  stack: Stack,
  userId: string,
): Promise<{ post: ResponseUrlPost; responseUrl: string }> {
  const responseUrl = stack.slack.responseUrl();
  const ack = await stack.sender.slashCommand({ text: 'connect', userId, responseUrl });
  expect(ack.status).toBe(200);
  const path = new URL(responseUrl).pathname;
  const post = await stack.slack.waitForPost((p) => p.path === path);
  return { post, responseUrl };
}

/** The link of the "Open connect page" button in a connect reply. */
export function linkOf(post: ResponseUrlPost): string {
  const url = getButton(post.body, 'Open connect page').url;
  if (url === undefined) throw new Error('the connect button has no url');
  return url;
}

export async function getPage(url: string): Promise<Page> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/**
 * What a browser sends with a form post from Vigil's own page: `Referrer-Policy: no-referrer` makes the
 * origin `null`, and `Sec-Fetch-Site` says the post comes from the same origin.
 */
export const SAME_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  origin: 'null',
  'sec-fetch-site': 'same-origin',
};

/** The per-page form token in a rendered connect page. */
export function formTokenOf(html: string): string | undefined {
  return /name="form_token" value="([^"]+)"/.exec(html)?.[1];
}

/** Posts `fields` as-is, with `headers` besides the form content type. */
export async function postRaw(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = SAME_ORIGIN_HEADERS,
): Promise<Page> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** As a browser does: loads the page (a fresh form token), then submits its form with `fields`. */
export async function postForm(url: string, fields: Record<string, string>): Promise<Page> {
  const formToken = formTokenOf((await getPage(url)).html);
  return postRaw(url, { ...(formToken === undefined ? {} : { form_token: formToken }), ...fields });
}

/** Submits the key step. */
export function submitKey(url: string, apiKey: string, region: string): Promise<Page> {
  return postForm(url, { step: 'key', api_key: apiKey, region });
}

export function submitTenant(url: string, tenantId: number): Promise<Page> {
  return postForm(url, { step: 'tenant', tenant_id: String(tenantId) });
}

/** The whole flow as an admin does it, ending on `tenantId`; returns the page URL (now spent). */
export async function connectThroughPage(
  stack: Stack,
  opts: { userId: string; apiKey: string; tenantId: number },
): Promise<{ pageUrl: string; responseUrl: string }> {
  const { post, responseUrl } = await requestConnect(stack, opts.userId);
  const pageUrl = reachable(stack, linkOf(post));
  const form = await getPage(pageUrl);
  expect(form.status).toBe(200);
  const tenants = await submitKey(pageUrl, opts.apiKey, simHost(stack));
  expect(tenants.status).toBe(200);
  const done = await submitTenant(pageUrl, opts.tenantId);
  expect(done.status).toBe(200);
  expect(done.html).toContain('Vigil is connected');
  return { pageUrl, responseUrl };
}
