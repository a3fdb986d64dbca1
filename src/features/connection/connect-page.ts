/**
 * The connect page: an admin follows a one-time link from `/vigil connect`, pastes the API key, picks the
 * region and then the tenant. The key never passes through Slack; between the two steps it is kept sealed
 * on the server (never in the page), and the link is consumed atomically when the connection is saved.
 */
import { VigilError } from '../../kernel/errors.js';
import { Html, html, layout, type Page } from '../../web/html.js';
import type { ConnectFlowPorts, ConnectLink, Region, VerifiedKey } from './connect.js';

const MAX_KEY_LENGTH = 512;

const expiredPage = () =>
  layout(
    'This link has expired',
    html`<p class="error">This connect link has expired or was already used. Links work once and for 10 minutes.</p>
<p>Run <code>/vigil connect</code> in Slack again to get a new one.</p>`,
    410,
  );

const staleFormPage = () =>
  layout(
    'This form was already sent',
    html`<p class="error">This form was already sent, or it is out of date.</p>
<p>Reload this page to get a fresh form and submit it once. If the link has expired, run <code>/vigil connect</code> in Slack again.</p>`,
    403,
  );

const usedUpPage = (reason: string) =>
  layout(
    'This link is used up',
    html`<p class="error">${reason} This link allows only a few key attempts and is now used up.</p>
<p>Check the key in the threat-intel portal, then run <code>/vigil connect</code> in Slack again to get a new link.</p>`,
    410,
  );

export class ConnectFlow {
  constructor(
    private readonly ports: ConnectFlowPorts,
    private readonly regions: Region[],
  ) {}

  async show(token: string): Promise<Page> {
    const link = await this.validLink(token);
    if (!link) return expiredPage();
    const key = (await this.ports.pending.get(token))?.key;
    const formToken = await this.ports.links.issueFormToken(token);
    if (formToken === undefined) return expiredPage();
    return key ? this.tenantForm(formToken, key.verified) : this.keyForm(formToken, link);
  }

  async submit(token: string, form: URLSearchParams): Promise<Page> {
    const link = await this.validLink(token);
    if (!link) return expiredPage();
    // Each rendering's token is accepted once: a replayed or forged form gets nowhere.
    if (!(await this.ports.links.takeFormToken(token, form.get('form_token') ?? ''))) return staleFormPage();
    const step = form.get('step');
    if (step === 'tenant') return this.submitTenant(token, link, form);
    return this.submitKey(token, link, form);
  }

  private async validLink(token: string): Promise<ConnectLink | undefined> {
    const link = await this.ports.links.peek(token);
    if (!link || link.expiresAt <= this.ports.now()) return undefined;
    return link;
  }

  /** Renders again after a refused submission, with a fresh form token. */
  private async again(token: string, render: (formToken: string) => Page): Promise<Page> {
    const formToken = await this.ports.links.issueFormToken(token);
    return formToken === undefined ? expiredPage() : render(formToken);
  }

  private keyForm(formToken: string, link: ConnectLink, error?: string, status = 200): Page {
    const options = this.regions.map(
      (r, i) => html`<option value="${r.host}"${i === 0 ? new Html(' selected') : ''}>${r.label}</option>`,
    );
    return layout(
      'Connect Vigil to the threat-intel API',
      html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<p>Requested by Slack user <code>${link.userId}</code> for workspace <code>${link.teamId}</code>.
The key is checked, stored encrypted, and never shown again, in Slack or here.</p>
<form method="post" autocomplete="off">
<input type="hidden" name="form_token" value="${formToken}">
<input type="hidden" name="step" value="key">
<label for="api_key">API key</label>
<input id="api_key" name="api_key" type="password" required maxlength="${MAX_KEY_LENGTH}" autocomplete="off" spellcheck="false">
<p class="hint">Create one in the threat-intel portal under your profile → API keys. Use a key dedicated to Vigil.</p>
<label for="region">Region</label>
<select id="region" name="region">${options}</select>
<button type="submit">Check key</button>
</form>`,
      status,
    );
  }

  private tenantForm(formToken: string, verified: VerifiedKey, error?: string, status = 200): Page {
    const tenants =
      verified.tenants.length > 0
        ? verified.tenants
        : [{ id: verified.defaultTenantId, name: 'Default tenant' }];
    const choices = tenants.map(
      (t) =>
        html`<label class="tenant"><input type="radio" name="tenant_id" value="${t.id}"${t.id === verified.defaultTenantId ? new Html(' checked') : ''} required> ${t.name} <span class="hint">(id ${t.id})</span></label>`,
    );
    return layout(
      'Choose the tenant',
      html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<p class="ok">Key accepted: key id ${verified.apiKeyId}, organization ${verified.organizationId}.</p>
<form method="post">
<input type="hidden" name="form_token" value="${formToken}">
<input type="hidden" name="step" value="tenant">
<fieldset><legend>Tenant this workspace will use</legend>${choices}</fieldset>
<button type="submit">Connect</button>
</form>`,
      status,
    );
  }

  private async submitKey(token: string, link: ConnectLink, form: URLSearchParams): Promise<Page> {
    const apiKey = (form.get('api_key') ?? '').trim();
    const host = form.get('region') ?? '';
    if (!this.regions.some((r) => r.host === host))
      return this.again(token, (t) => this.keyForm(t, link, 'Choose one of the listed regions.', 400));
    if (!apiKey || apiKey.length > MAX_KEY_LENGTH || /\s/.test(apiKey)) {
      return this.again(token, (t) =>
        this.keyForm(t, link, 'Paste the API key exactly as the portal shows it (no spaces).', 400),
      );
    }
    // Counted before the key is checked, so parallel submissions cannot all reach the API.
    const attempt = await this.ports.links.recordAttempt(token);
    if (!attempt) return usedUpPage('Too many keys were tried with this link.');
    let verified: VerifiedKey;
    try {
      verified = await this.ports.verifyKey(host, apiKey);
    } catch (err) {
      this.ports.logger.info('connect: key check failed', {
        teamId: link.teamId,
        remaining: attempt.remaining,
        err,
      });
      const problem = `That key did not work: ${describe(err)}`;
      if (attempt.remaining === 0) {
        await this.ports.links.consume(token);
        await this.ports.pending.delete(token);
        return usedUpPage(problem);
      }
      return this.again(token, (t) => this.keyForm(t, link, problem, 400));
    }
    const sealedApiKey = this.ports.seal(apiKey, link.teamId);
    await this.ports.pending.put(
      token,
      { key: { host, sealedApiKey, verified } },
      link.expiresAt - this.ports.now(),
    );
    return this.again(token, (t) => this.tenantForm(t, verified));
  }

  private async submitTenant(token: string, link: ConnectLink, form: URLSearchParams): Promise<Page> {
    const pending = (await this.ports.pending.get(token))?.key;
    if (!pending) return this.again(token, (t) => this.keyForm(t, link, 'Paste the API key first.', 400));
    const tenantId = Number(form.get('tenant_id'));
    const tenant =
      pending.verified.tenants.find((t) => t.id === tenantId) ??
      (tenantId === pending.verified.defaultTenantId ? { id: tenantId, name: 'Default tenant' } : undefined);
    if (!tenant)
      return this.again(token, (t) =>
        this.tenantForm(t, pending.verified, 'Choose one of the listed tenants.', 400),
      );
    const apiKey = this.ports.open(pending.sealedApiKey, link.teamId);
    try {
      await this.ports.checkTenant(pending.host, apiKey, tenant.id);
    } catch (err) {
      const problem = `This key cannot use that tenant: ${describe(err)}`;
      return this.again(token, (t) => this.tenantForm(t, pending.verified, problem, 400));
    }
    const consumed = await this.ports.links.consume(token);
    if (!consumed) return expiredPage();
    await this.ports.pending.delete(token);
    await this.ports.complete(consumed, {
      host: pending.host,
      sealedApiKey: pending.sealedApiKey,
      apiKeyId: pending.verified.apiKeyId,
      organizationId: pending.verified.organizationId,
      tenantId: tenant.id,
      tenantName: tenant.name,
      scopes: pending.verified.scopes,
    });
    return layout(
      'Vigil is connected',
      html`<p class="ok">This workspace now uses tenant <strong>${tenant.name}</strong> (id ${tenant.id}) with key id ${pending.verified.apiKeyId}.</p>
<p>You can close this page and go back to Slack. Try <code>/vigil status</code>.</p>`,
    );
  }
}

function describe(err: unknown): string {
  if (err instanceof VigilError) return `${err.told} ${err.hint}`;
  if (err instanceof Error) {
    const hint = (err as { hint?: unknown }).hint;
    return typeof hint === 'string' ? `${err.message} ${hint}` : err.message;
  }
  return 'unknown error';
}
