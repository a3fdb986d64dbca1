/**
 * The tools for what an event row's buttons do, which no `/vigil` subcommand does: act on one event
 * (Ignore, Remediate and their undoing) and open its stealer log. Each checks the permission its button
 * checks (`act`; `creds` for a stealer log), calls the same service, and audits there (surface `mcp`).
 */
import * as z from 'zod/v4';
import { contextRef } from '../../domain/contexts.js';
import { encodePages, renderStealerLog } from '../../domain/stealer-log-blocks.js';
import { ephemeral } from '../../slack/context.js';
import { slackDate } from '../../slack/kit/dates.js';
import { userMention } from '../../slack/kit/text.js';
import { COMMAND_TOOLS, confirm, eventUid, type ToolSpec, tool } from './tools.js';

const ACTIONS = ['ignore', 'remediate', 'unignore', 'unremediate'] as const;
const DONE: Readonly<Record<(typeof ACTIONS)[number], string>> = {
  ignore: 'ignored',
  remediate: 'remediated',
  unignore: 'unignored',
  unremediate: 'unremediated',
};

const actOnEvent = tool({
  name: 'act_on_event',
  title: 'Ignore or remediate an event',
  description:
    'Marks one event ignored or remediated for the whole tenant (or undoes it), as the Ignore and Remediate buttons do. Needs the `act` permission. Call first without confirm to learn what would happen, ask the person, then call again with confirm: true. To quiet an event for a while instead, use snooze_event.',
  input: {
    event_uid: eventUid,
    action: z.enum(ACTIONS).describe('ignore, remediate, or undo one of them (unignore, unremediate).'),
    confirm,
  },
  acts: true,
  wouldDo: (a) =>
    `Mark event \`${a.event_uid}\` ${DONE[a.action]} for the whole tenant, in Flare as in Vigil's messages.`,
  work: (a, deps) => ({
    kind: 'act_on_event',
    access: 'act',
    async run(who) {
      const from = await deps.events.generationOf(who.workspaceId, a.event_uid);
      const outcome = await deps.events.actOnEvent({
        workspaceId: who.workspaceId,
        uid: a.event_uid,
        from,
        action: a.action,
        by: who.userId,
        detail: 'from an MCP client',
      });
      const text =
        outcome.kind === 'acted'
          ? `Event \`${a.event_uid}\` ${DONE[a.action]} ${slackDate(outcome.acted.at)}.`
          : outcome.kind === 'stale'
            ? `${userMention(outcome.last?.by ?? '') ?? 'Someone'} acted on event \`${a.event_uid}\` first, so Vigil did nothing more.`
            : `Someone is already acting on event \`${a.event_uid}\`: look again in a moment.`;
      await who.respond(ephemeral({ text }, false));
    },
  }),
});

const stealerLog = tool({
  name: 'get_stealer_log',
  title: "An infected device's stealer log",
  description:
    'The stealer log behind an infected-device event (type stealer_log): malware, infection date, the machine, and its saved logins and cookies with the company’s own domains first. Values are masked; never ask for them in clear. Needs the `creds` permission.',
  input: { event_uid: eventUid },
  acts: false,
  work: (a, deps) => ({
    kind: 'get_stealer_log',
    access: 'creds',
    async run(who) {
      const { view, id } = await deps.stealerLogs.open({
        workspaceId: who.workspaceId,
        userId: who.userId,
        uid: a.event_uid,
      });
      const message = renderStealerLog(view, {
        now: deps.clock.now(),
        ref: (i) => contextRef(id, i),
        pageRef: (p) => contextRef(id, encodePages(p)),
      });
      await who.respond(ephemeral(message, false));
    },
  }),
});

/** Every tool, in the order `tools/list` gives them. The names are an interface: never rename one. */
export const TOOLS: readonly ToolSpec[] = [
  ...COMMAND_TOOLS,
  actOnEvent,
  stealerLog,
] as unknown as readonly ToolSpec[];
