/**
 * The outbound proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY): every kind of call Vigil makes goes through a
 * real local proxy when the variables are set, and straight when NO_PROXY covers the host. The proxy records
 * each request line it carries, so each kind is seen by path.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_APP_TOKEN,
  DEFAULT_BOT_TOKEN,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { loadConfig } from '../../src/app/config.js';
import { createOutbound } from '../../src/kernel/outbound.js';
import { addCredential } from '../features/credentials/support/creds-stack.js';
import { click, command, waitPostTo } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { type RecordingProxy, startRecordingProxy } from '../support/recording-proxy.js';
import { type Stack, startStack } from '../support/stack.js';

type Json = Record<string, unknown>;
let proxy: RecordingProxy;
beforeAll(async () => {
  proxy = await startRecordingProxy();
});
afterAll(async () => {
  await proxy?.close();
});

const hostOf = (url: string) => new URL(url).host;
const pathOf = (url: string) => new URL(url).pathname;

describe('HTTP mode, one workspace, HTTP_PROXY set', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { HTTP_PROXY: proxy.url }, open: ['sandbox'] });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('checks the bot token through the proxy before taking traffic (Slack Web API)', () => {
    expect(proxy.saw(hostOf(stack.slack.url), '/api/auth.test', 'POST')).toBe(true);
  });

  it('`/vigil status`: the threat-intel API and the response_url answer through the proxy', async () => {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'status', responseUrl });
    const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
    expect(textOf(post.body as Json)).toContain('Organization');
    const sim = hostOf(stack.sim.url);
    expect(proxy.requests.filter((r) => r.target === sim).length).toBeGreaterThan(0);
    expect(proxy.saw(sim, /tokens\/test/)).toBe(true);
    expect(proxy.saw(hostOf(responseUrl), pathOf(responseUrl), 'POST')).toBe(true);
  });

  it("Vigil's own response_url posts and the posters' Web API calls go through it (an export to the DM)", async () => {
    addCredential(stack, { identity_name: 'someone@proxied.example' });
    const { post } = await command(stack, 'creds domain proxied.example', { userId: SEEDED_USERS.admin });
    const clicked = await click(stack, post.body as { blocks?: unknown[] }, 'Export CSV', {
      userId: SEEDED_USERS.admin,
    });
    // "Exporting…" replaces the results through the click's response_url, posted by Vigil itself.
    await waitPostTo(stack, clicked.responseUrl);
    expect(proxy.saw(hostOf(clicked.responseUrl), pathOf(clicked.responseUrl), 'POST')).toBe(true);
    await stack.slack.waitFor((c) => c.method === 'files.completeUploadExternal');
    const slack = hostOf(stack.slack.url);
    expect(proxy.saw(slack, '/api/conversations.open', 'POST')).toBe(true);
    expect(proxy.saw(slack, /^\/upload\/v1\//, 'POST')).toBe(true);
    expect(proxy.saw(slack, '/api/files.completeUploadExternal', 'POST')).toBe(true);
  });

  it('downloads a shared file and sends it to the sandbox through the proxy', async () => {
    const bytes = randomBytes(10 * 1024);
    const file = stack.slack.addFile({
      filename: 'sample.bin',
      bytes,
      user: SEEDED_USERS.member,
      mimetype: 'application/octet-stream',
    });
    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({ text: 'upload', responseUrl: stack.slack.responseUrl(), triggerId });
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    const view = opened.body.view as Json;
    const viewId = String((opened.response.view as Json).id);
    const before = proxy.requests.length;
    await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      viewId,
      userId: SEEDED_USERS.member,
      values: { sandbox_file: { file: { type: 'file_input', files: [file] } } },
    });
    const final = await stack.slack.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.body.view_id === viewId &&
        /was sent to the sandbox|not sent/.test(textOf(c.body)),
    );
    expect(textOf(final.body)).toContain(createHash('sha256').update(bytes).digest('hex'));
    const carried = proxy.requests.slice(before);
    const download = stack.slack.downloads.at(-1);
    expect(download?.served).toBe(true);
    expect(carried.some((r) => r.target === hostOf(stack.slack.url) && r.method === 'GET')).toBe(true);
    expect(carried.some((r) => r.target === hostOf(stack.sim.url) && /upload/i.test(r.path))).toBe(true);
  });
});

describe('Socket Mode through the proxy (lower-case http_proxy)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      env: { SLACK_APP_TOKEN: DEFAULT_APP_TOKEN, SLACK_SIGNING_SECRET: '', http_proxy: proxy.url },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('asks for the socket address and opens the WebSocket through the proxy', () => {
    const slack = hostOf(stack.slack.url);
    expect(stack.slack.socket.open.map((c) => c.appToken)).toEqual([DEFAULT_APP_TOKEN]);
    expect(proxy.saw(slack, '/api/apps.connections.open', 'POST')).toBe(true);
    expect(proxy.saw(slack, /^\/socket\//, 'GET')).toBe(true);
  });
});

describe('OAuth install through the proxy', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      connect: false,
      env: {
        SLACK_BOT_TOKEN: '',
        SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
        SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
        SLACK_STATE_SECRET: 'proxy-state-secret-0123456789',
        HTTP_PROXY: proxy.url,
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('exchanges the code (oauth.v2.access) through the proxy', async () => {
    const start = await fetch(`${stack.vigil.url}/slack/install`, { redirect: 'manual' });
    const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const code = stack.slack.issueOAuthCode({ teamId: 'T0PROXY01', userId: SEEDED_USERS.owner });
    const done = await fetch(
      `${stack.vigil.url}/slack/oauth_redirect?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
      { headers: { cookie }, redirect: 'manual' },
    );
    await done.arrayBuffer();
    expect(done.status).toBeLessThan(400);
    expect(proxy.saw(hostOf(stack.slack.url), '/api/oauth.v2.access', 'POST')).toBe(true);
  });
});

describe('NO_PROXY', () => {
  it('sends every call straight to a host it covers', async () => {
    const tunnels = proxy.tunnels.length;
    const requests = proxy.requests.length;
    const stack = await startStack({
      env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'example.org, 127.0.0.1' },
    });
    try {
      const responseUrl = stack.slack.responseUrl();
      await stack.sender.slashCommand({ text: 'status', responseUrl });
      const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
      expect(textOf(post.body as Json)).toContain('Organization');
      expect(stack.slack.callsTo('auth.test').length).toBeGreaterThan(0);
    } finally {
      await stack.close();
    }
    expect(proxy.tunnels.length).toBe(tunnels);
    expect(proxy.requests.length).toBe(requests);
  });

  /** Whether a request to `url` reached the proxy (a host that does not resolve fails on its own otherwise). */
  async function proxied(env: Record<string, string>, url: string): Promise<boolean> {
    const outbound = createOutbound(loadConfig({ ...MINIMAL_ENV, ...env }).proxy);
    const before = proxy.tunnels.length + proxy.requests.length;
    try {
      const res = await request(url, { dispatcher: outbound.dispatcher, headersTimeout: 5_000 });
      await res.body.dump();
    } catch {
      // The proxy cannot resolve it either, or the host is not there: only who was asked matters here.
    } finally {
      await outbound.close();
    }
    return proxy.tunnels.length + proxy.requests.length > before;
  }

  it("follows curl's rules: suffixes, ports, `*`, either case; nothing exempt by default, loopback included", async () => {
    const proxyEnv = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
    expect(await proxied(proxyEnv, 'http://vigil.invalid/')).toBe(true);
    expect(await proxied(proxyEnv, 'http://127.0.0.1:9/')).toBe(true);
    expect(await proxied({ ...proxyEnv, NO_PROXY: 'invalid' }, 'http://vigil.invalid/')).toBe(false);
    expect(await proxied({ ...proxyEnv, no_proxy: '.vigil.invalid' }, 'http://api.vigil.invalid/')).toBe(
      false,
    );
    expect(await proxied({ ...proxyEnv, NO_PROXY: '*.vigil.invalid' }, 'http://api.vigil.invalid/')).toBe(
      false,
    );
    expect(await proxied({ ...proxyEnv, NO_PROXY: 'other.invalid' }, 'http://vigil.invalid/')).toBe(true);
    expect(await proxied({ ...proxyEnv, NO_PROXY: 'vigil.invalid:8080' }, 'http://vigil.invalid/')).toBe(
      true,
    );
    expect(await proxied({ ...proxyEnv, NO_PROXY: 'vigil.invalid:80' }, 'http://vigil.invalid/')).toBe(false);
    expect(await proxied({ ...proxyEnv, NO_PROXY: 'a.invalid, *' }, 'http://vigil.invalid/')).toBe(false);
    expect(await proxied({ ...proxyEnv, NO_PROXY: 'invalid.vigil' }, 'http://vigil.invalid/')).toBe(true);
  });
});

const MINIMAL_ENV = {
  SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
  SLACK_SIGNING_SECRET: 'secret',
  VIGIL_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('the proxy variables', () => {
  const proxyOf = (env: Record<string, string>) => loadConfig({ ...MINIMAL_ENV, ...env }).proxy;

  it('are read in either case, the lower-case name first, a bare host:port meaning http://', () => {
    expect(proxyOf({})).toBeUndefined();
    expect(proxyOf({ NO_PROXY: 'example.org' })).toBeUndefined();
    expect(proxyOf({ HTTPS_PROXY: 'proxy.corp:3128' })).toEqual({
      httpsProxy: 'http://proxy.corp:3128/',
      httpProxy: '',
      noProxy: '',
    });
    expect(
      proxyOf({
        https_proxy: 'http://low:1',
        HTTPS_PROXY: 'http://up:2',
        NO_PROXY: 'A.example, ::1 ,[::2]:80',
      }),
    ).toEqual({ httpsProxy: 'http://low:1/', httpProxy: '', noProxy: 'a.example,[::1],[::2]:80' });
  });

  it('refuse what is not an http(s) proxy URL, one line each, without quoting it', () => {
    let lines: string[] = [];
    try {
      loadConfig({ ...MINIMAL_ENV, HTTPS_PROXY: 'ftp://user:hunter22@proxy:21', HTTP_PROXY: 'http://' });
    } catch (err) {
      lines = (err as { lines: string[] }).lines;
    }
    expect(lines).toEqual([
      'HTTPS_PROXY: must be an http:// or https:// proxy (not ftp)',
      'HTTP_PROXY: must be a proxy URL such as http://proxy.example:3128',
    ]);
  });
});
