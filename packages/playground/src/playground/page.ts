/** The playground page: a Slack-like channel with an App Home tab. Content arrives as server-rendered fragments. */
import { escapeHtml } from './render/escape.js';

interface PageConversation {
  id: string;
  name: string;
  kind: 'channel' | 'im';
  isPrivate: boolean;
  member: boolean;
}

export interface PageFacts {
  workspace: string;
  userName: string;
  /** Channels, then the DM with Vigil; the first is shown when the page opens. */
  conversations: PageConversation[];
  /** Whether the "Run digests now" control is offered (only when Vigil gives the hook). */
  digests: boolean;
}

function sideItem(c: PageConversation, active: boolean): string {
  const icon =
    c.kind === 'im'
      ? '<span class="side-icon app-dot" aria-hidden="true"></span>'
      : c.isPrivate
        ? '<span class="side-icon lock" aria-hidden="true"></span>'
        : '<span class="side-icon" aria-hidden="true">#</span>';
  const note = c.kind === 'channel' && !c.member ? ' title="Vigil is not a member of this channel"' : '';
  return (
    `<a class="side-item${active ? ' active' : ''}${c.member ? '' : ' not-member'}" href="#" data-conversation="${escapeHtml(c.id)}"` +
    ` data-name="${escapeHtml(c.name)}" data-kind="${c.kind}"${note}>${icon}<span class="side-name">${escapeHtml(c.name)}</span>` +
    `${c.kind === 'channel' && !c.member ? '<span class="side-hint">no Vigil</span>' : ''}<span class="badge" hidden></span></a>`
  );
}

/** No inline script or style, nothing from elsewhere: the page can run only its own script. */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
} as const;

export function pageHtml(f: PageFacts): string {
  const first = f.conversations[0];
  const channel = escapeHtml(first?.name ?? 'general');
  const channels = f.conversations.filter((c) => c.kind === 'channel');
  const apps = f.conversations.filter((c) => c.kind === 'im');
  const digests = f.digests
    ? '<button type="button" class="toolbar-button" id="run-digests" title="Post this channel&#39;s digests now">Run digests now</button>'
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vigil playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/playground/app.css">
<script src="/playground/app.js" defer></script>
</head>
<body>
<div class="app">
  <nav class="sidebar" aria-label="Workspace">
    <div class="workspace">${escapeHtml(f.workspace)}<span class="workspace-sub">Vigil playground</span></div>
    <div class="side-title">Channels</div>
    ${channels.map((c) => sideItem(c, c === first)).join('\n    ')}
    <div class="side-title">Apps</div>
    ${apps.map((c) => sideItem(c, c === first)).join('\n    ')}
    <a class="side-title" href="/playground/agent">Ask Vigil (agent DM) ↗</a>
    <a class="side-title" href="/playground/slackbot">Slackbot with Vigil's tools (MCP) ↗</a>
    <a class="side-title" href="/playground/person" id="person-link">Be @dana, the employee (her DM) ↗</a>
    <div class="side-foot">You are <b>@${escapeHtml(f.userName)}</b> (workspace admin)</div>
  </nav>
  <main class="main">
    <header class="channel-head">
      <div class="channel-title" id="view-title"># ${channel}</div>
      <div class="tabs" role="tablist">
        <button type="button" role="tab" class="tab active" id="tab-messages" aria-selected="true" aria-controls="panel-messages">Messages</button>
        <button type="button" role="tab" class="tab" id="tab-home" aria-selected="false" aria-controls="panel-home">Vigil · Home</button>
      </div>
      ${digests}
    </header>
    <div class="banner" role="note"><b>Playground</b>: Vigil is running for real against a simulated Slack and a simulated
      threat-intel API on this machine, with seeded data. Nothing here reaches Slack or the internet. To connect a real
      Slack app, set <code>SLACK_BOT_TOKEN</code> and <code>SLACK_SIGNING_SECRET</code> (or <code>SLACK_APP_TOKEN</code>)
      and start Vigil again: see the README.</div>
    <section class="panel" id="panel-messages" role="tabpanel" aria-labelledby="tab-messages">
      <div class="timeline" id="timeline" aria-live="polite"></div>
      <button type="button" class="jump" id="jump" hidden>New messages ↓</button>
      <form class="composer" id="composer" autocomplete="off">
        <label class="visually-hidden" for="composer-input" id="composer-label">Message #${channel}</label>
        <ul class="completion" id="completion" role="listbox" aria-label="Channels" hidden></ul>
        <textarea id="composer-input" rows="1" placeholder="Type /vigil help and press Enter · # for a channel · ↑ for history" spellcheck="false" aria-autocomplete="list" aria-controls="completion"></textarea>
        <button type="submit" class="send" aria-label="Send">Send</button>
      </form>
    </section>
    <section class="panel" id="panel-home" role="tabpanel" aria-labelledby="tab-home" hidden>
      <div class="home" id="home"><p class="home-empty">Opening the App Home…</p></div>
    </section>
  </main>
  <aside class="flexpane" id="flexpane" aria-label="Side panel" hidden></aside>
</div>
<div class="overlay" id="overlay" hidden></div>
</body>
</html>
`;
}
