/**
 * Slackbot in the playground (`/playground/slackbot`): the visitor picks or types a question, and the
 * playground plays the Slackbot MCP client against Vigil's own `/mcp` — the official MCP client SDK over
 * Streamable HTTP, announcing the `io.slack/block-kit` extension, every request naming the playground's
 * person in `params._meta.slack` and signed with the app's signing secret, as Slack's identity auth sends it
 * (src/features/mcp/slack-identity.ts). It lists the tools, calls the one the question reads as, and shows
 * the tool's text and its Block Kit (`_meta.slack.blocks`) through the playground's own renderer.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Logger } from '../../../../src/kernel/logger.js';
import { blocksHtml, type RenderContext } from './render/blocks.js';
import { escapeHtml } from './render/escape.js';
import { isSameOrigin, json, servePage, sideDocument } from './side-page.js';
import type { Actor } from './slack-side.js';
import { chooseTool, type SuggestedQuestion, type ToolChoice } from './slackbot-questions.js';
import { SLACKBOT_SCRIPT } from './slackbot-script.js';

export interface SlackbotOptions {
  /** Vigil's `/mcp`; a function because it is known only once Vigil listens. */
  mcpUrl: () => string;
  signingSecret: string;
  actor: Actor;
  nowMs: () => number;
  suggestions: SuggestedQuestion[];
  logger: Logger;
  context(timeZone: string): RenderContext;
}

const MAX_QUESTION = 500;
const BLOCK_KIT = { 'io.slack/block-kit': { mimeTypes: ['application/vnd.slack.blocks+json'] } };

/** Pure: a JSON-RPC body with each request naming `actor` in `params._meta.slack`, as Slackbot sends it. */
function namingActor(body: string, actor: Pick<Actor, 'userId' | 'teamId'>): string {
  if (body === '') return body;
  const slack = { user_id: actor.userId, team_id: actor.teamId };
  const name = (m: Record<string, unknown>) => {
    if (typeof m.method !== 'string' || m.id === undefined) return m;
    const params = (m.params ?? {}) as Record<string, unknown>;
    return { ...m, params: { ...params, _meta: { ...(params._meta as object | undefined), slack } } };
  };
  const parsed = JSON.parse(body) as Record<string, unknown> | Array<Record<string, unknown>>;
  return JSON.stringify(Array.isArray(parsed) ? parsed.map(name) : name(parsed));
}

/** A fetch that names the person and signs each request with the app's signing secret, as Slack does. */
function slackSignedFetch(o: SlackbotOptions): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const body = namingActor(typeof init?.body === 'string' ? init.body : '', o.actor);
    const ts = Math.floor(o.nowMs() / 1000);
    const signature = `v0=${createHmac('sha256', o.signingSecret).update(`v0:${ts}:`).update(body).digest('hex')}`;
    const headers = new Headers(init?.headers);
    headers.set('x-slack-request-timestamp', String(ts));
    headers.set('x-slack-signature', signature);
    return fetch(input, { ...init, headers, ...(init?.body === undefined ? {} : { body }) });
  }) as typeof fetch;
}

/** One MCP session with Vigil, opened on first use and opened again when Vigil has forgotten it. */
class VigilMcp {
  private client: Promise<Client> | undefined;

  constructor(private readonly o: SlackbotOptions) {}

  private connect(): Promise<Client> {
    this.client ??= (async () => {
      const client = new Client(
        { name: 'vigil-playground-slackbot', version: '1.0.0' },
        { capabilities: { extensions: BLOCK_KIT } },
      );
      const transport = new StreamableHTTPClientTransport(new URL(this.o.mcpUrl()), {
        fetch: slackSignedFetch(this.o),
      });
      await client.connect(transport);
      return client;
    })();
    this.client.catch(() => {
      this.client = undefined;
    });
    return this.client;
  }

  async tools() {
    return (await (await this.connect()).listTools()).tools;
  }

  async call(choice: ToolChoice) {
    const client = await this.connect();
    try {
      return await client.callTool({ name: choice.tool, arguments: choice.arguments });
    } catch (err) {
      // The session is gone (Vigil restarted or dropped it idle): once more with a new one.
      this.client = undefined;
      void client.close().catch(() => undefined);
      if (!/404|session/i.test(String(err))) throw err;
      return (await this.connect()).callTool({ name: choice.tool, arguments: choice.arguments });
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await client.then((c) => c.close()).catch(() => undefined);
  }
}

async function readQuestion(req: IncomingMessage): Promise<string | undefined> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * 1024) return undefined;
    chunks.push(chunk);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { question?: unknown };
    const q = typeof value.question === 'string' ? value.question.slice(0, MAX_QUESTION).trim() : '';
    return q === '' ? undefined : q;
  } catch {
    return undefined;
  }
}

/** The answer as the page shows it: the tool's text as text, its Block Kit rendered by the playground. */
function answerView(
  question: string,
  choice: ToolChoice,
  result: Awaited<ReturnType<VigilMcp['call']>>,
  ctx: RenderContext,
) {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  const blocks = (result._meta as { slack?: { blocks?: unknown } } | undefined)?.slack?.blocks;
  return {
    question,
    tool: choice.tool,
    arguments: choice.arguments,
    isError: result.isError === true,
    text: content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n'),
    blocksHtml: Array.isArray(blocks) ? blocksHtml(blocks, ctx) : '',
  };
}

async function ask(o: SlackbotOptions, mcp: VigilMcp, req: IncomingMessage, res: ServerResponse, url: URL) {
  const question = await readQuestion(req);
  if (question === undefined) return json(res, 400, { ok: false, message: 'Ask a question.' });
  const choice = o.suggestions.find((s) => s.question === question)?.choice ?? chooseTool(question);
  let result: Awaited<ReturnType<VigilMcp['call']>>;
  try {
    result = await mcp.call(choice);
  } catch (err) {
    o.logger.warn('playground slackbot: the MCP call failed', { err, tool: choice.tool });
    return json(res, 502, {
      ok: false,
      message: 'Vigil’s MCP server did not answer; the details are in the log.',
    });
  }
  const ctx = o.context(url.searchParams.get('tz') ?? 'UTC');
  json(res, 200, { ok: true, ...answerView(question, choice, result, ctx) });
}

/** Answers the Slackbot panel's paths (already checked to be the playground's own host); false for any other. */
export function createSlackbotRoutes(o: SlackbotOptions) {
  const mcp = new VigilMcp(o);
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (
      servePage(req, res, url, { path: '/playground/slackbot', page: SLACKBOT_PAGE, script: SLACKBOT_SCRIPT })
    )
      return true;
    const sameOrigin = isSameOrigin(req);
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /playground/slackbot/tools': {
        const tools = await mcp.tools().catch((err: unknown) => {
          o.logger.warn('playground slackbot: tools/list failed', { err });
          return [];
        });
        json(res, 200, {
          suggestions: o.suggestions.map((s) => s.question),
          tools: tools.map((t) => ({
            name: t.name,
            title: t.title ?? t.name,
            description: t.description ?? '',
          })),
        });
        return true;
      }
      case 'POST /playground/slackbot/ask':
        if (!sameOrigin) json(res, 403, { ok: false });
        else await ask(o, mcp, req, res, url);
        return true;
      default:
        return false;
    }
  };
  return Object.assign(handle, { close: () => mcp.close() });
}

const SLACKBOT_PAGE = sideDocument(
  'Vigil · Slackbot · playground',
  '/playground/slackbot.js',
  `<main class="main slackbot">
  <header class="channel-head"><div class="channel-title">${escapeHtml('Slackbot · with Vigil’s MCP tools')}</div>
    <a class="toolbar-button" href="/">Back to the workspace</a></header>
  <div class="banner" role="note"><b>Playground</b>: Slackbot calling Vigil’s MCP server at <code>/mcp</code>, as
    you, with Slack identity auth (each request signed and naming you). Slackbot’s model chooses the tool;
    here a simple reading of your question stands in for it, and shows its choice.</div>
  <div class="prompts" id="suggestions" aria-label="Suggested questions"></div>
  <details class="slackbot-tools"><summary id="tools-summary">Vigil’s tools</summary><ul id="tools"></ul></details>
  <div class="timeline" id="answers" aria-live="polite"></div>
  <form class="composer" id="slackbot-composer" autocomplete="off">
    <label class="visually-hidden" for="slackbot-input">Ask Slackbot</label>
    <textarea id="slackbot-input" rows="1" placeholder="Ask Slackbot: did any of our executives show up in stealer logs this week?"></textarea>
    <button type="submit" class="send">Send</button>
  </form>
</main>`,
);
