/**
 * `/vigil idp connect|status|disconnect`, `/vigil settings contain-approval on|off`, and the form that takes
 * the identity provider's secret (registered with the logger's redaction at once, sealed, never echoed).
 */
import type { App } from '@slack/bolt';
import { z } from 'zod';
import { VigilError } from '../../kernel/errors.js';
import { registerSecret } from '../../kernel/logger.js';
import type { CommandHandler } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { onView } from '../../slack/listen.js';
import { ephemeralPoster } from '../../slack/respond.js';
import { connectView, IDP_CONNECT_CALLBACK, renderIdpStatus } from './blocks.js';
import type { NewConnection } from './connection.js';
import type { ContainmentDeps } from './deps.js';
import { readPrivateKey } from './okta/jwt.js';

const MAX_SECRET = 1000;
/** A private key (JWK or PEM, RSA 2048 or P-256) fits in what a Slack text input takes. */
const MAX_PRIVATE_KEY = 3000;

const FormSchema = z.object({
  provider: z.enum(['entra', 'okta']),
  tenant: z.string().optional(),
  clientId: z.string().optional(),
  org: z.string().optional(),
  channelId: z.string().regex(/^[CDG][A-Z0-9]{2,30}$/),
});

/** No progress text: the trigger id lives 3 s, so the form opens before anything else. */
export const idpConnect: CommandHandler<'idp-connect', ContainmentDeps> = {
  async run(ctx) {
    const c = ctx.command;
    const form =
      c.provider === 'entra'
        ? { provider: c.provider, tenant: c.tenant, clientId: c.client, channelId: ctx.channelId }
        : {
            provider: c.provider,
            org: c.org,
            ...(c.client === undefined ? {} : { clientId: c.client }),
            channelId: ctx.channelId,
          };
    await ctx.client.views.open({ trigger_id: ctx.triggerId, view: connectView(form) });
  },
};

export const idpStatus: CommandHandler<'idp-status', ContainmentDeps> = {
  progress: () => 'Checking the identity provider…',
  async run(ctx) {
    await ctx.respond(ephemeral(renderIdpStatus(await ctx.deps.containment.status(ctx.workspaceId)), true));
  },
};

export const idpDisconnect: CommandHandler<'idp-disconnect', ContainmentDeps> = {
  async run(ctx) {
    const was = await ctx.deps.containment.disconnect(ctx.workspaceId, ctx.userId);
    const text = was
      ? 'The identity provider is disconnected and its secret deleted; containment is off until one is connected again.'
      : 'No identity provider was connected.';
    await ctx.respond(ephemeral({ text }, true));
  },
};

export const containApproval: CommandHandler<'settings-contain-approval', ContainmentDeps> = {
  async run(ctx) {
    const { on } = ctx.command;
    await ctx.deps.containment.setApproval(ctx.workspaceId, on, ctx.userId);
    const text = on
      ? 'Containment now waits for a second holder of `contain` to approve each request.'
      : 'Containment now runs on the requester’s own click, without a second approver.';
    await ctx.respond(ephemeral({ text }, true));
  },
};

/** An error must not carry the secret (a provider may quote what it was sent). */
function scrub(err: unknown, secret: string): unknown {
  if (!(err instanceof Error)) return err;
  const hint = err instanceof VigilError ? err.hint : '';
  if (!`${err.message}\n${hint}`.includes(secret)) return err;
  return new VigilError(
    'The identity provider refused these settings.',
    'Check them and try again with the form.',
  );
}

type StateValues = Record<string, Record<string, { value?: string | null }>>;

export function registerConnectForm(app: App, deps: ContainmentDeps): void {
  onView(
    app,
    deps,
    IDP_CONNECT_CALLBACK,
    ({ who, view, client }) => {
      const form = FormSchema.safeParse(safeJson(view.private_metadata));
      if (!form.success) return {};
      const secret = ((view.state.values as StateValues).secret?.value?.value ?? '').trim();
      const f = form.data;
      const serviceApp = f.provider === 'okta' && f.clientId !== undefined;
      const problem = serviceApp ? keyProblem(secret) : secretProblem(secret);
      if (problem !== undefined) return { ack: { response_action: 'errors', errors: { secret: problem } } };
      registerSecret(secret);
      const connection: NewConnection =
        f.provider === 'entra'
          ? { provider: 'entra', tenant: f.tenant ?? '', clientId: f.clientId ?? '' }
          : {
              provider: 'okta',
              org: f.org ?? '',
              ...(f.clientId === undefined ? {} : { clientId: f.clientId }),
            };
      const respond = ephemeralPoster(client, f.channelId, who.userId);
      return {
        respond,
        scrub: (err) => scrub(err, secret),
        work: async () => {
          await deps.containment.connect(who.workspaceId, connection, secret, who.userId);
          const status = await deps.containment.status(who.workspaceId);
          await respond({ response_type: 'ephemeral', ...renderIdpStatus(status) });
        },
      };
    },
    'admin',
  );
}

function secretProblem(secret: string): string | undefined {
  return secret === '' || secret.length > MAX_SECRET || /\s/.test(secret)
    ? 'Paste the secret exactly, without spaces.'
    : undefined;
}

/** The service app's private key is checked before anything is sent: a key Vigil cannot sign with is told here. */
function keyProblem(key: string): string | undefined {
  if (key === '' || key.length > MAX_PRIVATE_KEY)
    return 'Paste the private key (JWK or PEM) exactly; RSA 2048 or EC P-256 keys fit.';
  try {
    readPrivateKey(key);
    return undefined;
  } catch (err) {
    return err instanceof VigilError ? err.message : 'That is not a private key Vigil can sign with.';
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
