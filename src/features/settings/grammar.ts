/**
 * `settings …`: who may do what (`settings <permission> everyone|admins|group:<usergroup>`), Vigil's own
 * administrators (`settings admins …`), event cards in shared channels and the second approver of containment.
 */
import {
  type Actors,
  PERMISSION_WORDS,
  PERMISSIONS,
  type Permission,
} from '../../kernel/permission-rules.js';
import { alsoGot, singleValueOf } from '../../slack/grammar/args.js';
import { echo, fail } from '../../slack/grammar/errors.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import { suggest } from '../../slack/grammar/suggest.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    audit: { kind: 'audit'; limit: number };
    'audit-export': { kind: 'audit-export' };
    settings: { kind: 'settings' };
    'settings-actors': { kind: 'settings-actors'; permission: Permission; actors: Actors };
    /** Who administers Vigil: one user group, or `admins` (Slack's workspace admins, as before it was set). */
    'settings-admins': { kind: 'settings-admins'; admins: 'admins' | { usergroup: string } };
    /** Event cards in one channel shared with another organization (Slack Connect), opened or closed by an admin. */
    'settings-cards': { kind: 'settings-cards'; channel: string; open: boolean };
    /** `settings contain-approval on|off`: whether a containment waits for a second holder of `contain`. */
    'settings-contain-approval': { kind: 'settings-contain-approval'; on: boolean };
  }
}

/** `actors` is the first name of the `act` permission, kept for the commands people already know. */
const SETTING_NAMES: Readonly<Record<string, Permission | 'admins'>> = {
  actors: 'act',
  ...Object.fromEntries(PERMISSIONS.map((p) => [p, p])),
  admins: 'admins',
};

/**
 * `settings cards #channel open|closed`: event cards in a channel shared with another organization, which
 * get none unless an admin opens them there (whoever is in the channel sees a card).
 */
function parseCardsSetting(tokens: readonly Token[]): CommandOf<'settings-cards'> {
  const [channel, choice, extra] = tokens;
  const example = '/vigil settings cards <#C0123ABCD> open';
  const ref = channel?.ref?.type === 'channel' ? channel.ref : undefined;
  if (ref === undefined)
    fail('`settings cards` needs a channel: mention it (type # and pick it).', { example });
  const word = choice && choice.key === undefined && !choice.quoted ? choice.value.toLowerCase() : '';
  if (word !== 'open' && word !== 'closed')
    fail('`settings cards #channel` needs `open` or `closed`.', { example });
  if (extra)
    fail(`\`settings cards\` takes a channel and one value; got also ${alsoGot(extra)}.`, { example });
  return { kind: 'settings-cards', channel: ref.id, open: word === 'open' };
}

/** `settings contain-approval on|off`. */
function parseContainApproval(
  value: Token | undefined,
  extra: Token | undefined,
): CommandOf<'settings-contain-approval'> {
  const example = '/vigil settings contain-approval on';
  const choice = value?.key === undefined ? value?.value.toLowerCase() : undefined;
  if (extra || (choice !== 'on' && choice !== 'off'))
    fail('`settings contain-approval` takes `on` or `off`.', { example });
  return { kind: 'settings-contain-approval', on: choice === 'on' };
}

type SettingsKind =
  | 'settings'
  | 'settings-actors'
  | 'settings-admins'
  | 'settings-cards'
  | 'settings-contain-approval';

function parseSettings(tokens: readonly Token[]): CommandOf<SettingsKind> {
  const [what, value, extra] = tokens;
  if (!what) return { kind: 'settings' };
  const word = what.key === undefined && !what.quoted ? what.value.toLowerCase() : '';
  if (word === 'cards') return parseCardsSetting(tokens.slice(1));
  if (word === 'contain-approval') return parseContainApproval(value, extra);
  const permission = SETTING_NAMES[word];
  if (permission === undefined) {
    const guess = suggest(what.key ?? what.value, Object.keys(SETTING_NAMES));
    fail(`\`${echo(what.text)}\` is not a setting.`, {
      hint: guess
        ? `Did you mean \`${guess}\`?`
        : `The settings are ${PERMISSIONS.map((p) => `\`${p}\``).join(', ')}: who may do what, and \`admins\`: who administers Vigil.`,
    });
  }
  const example = `/vigil settings ${word} admins`;
  const groupExample = `/vigil settings ${word} group:${EXAMPLE.usergroup}`;
  if (!value)
    fail(`\`settings ${word}\` needs \`everyone\`, \`admins\` or \`group:<usergroup>\`.`, { example });
  if (extra) fail(`\`settings ${word}\` takes one value; got also ${alsoGot(extra)}.`, { example });
  let actors: Actors | undefined;
  const ref = value.ref?.type === 'usergroup' ? value.ref : undefined;
  if (ref && (value.key === undefined || value.key === 'group')) {
    actors = { usergroup: ref.id };
  } else if (value.key === 'group') {
    const id = singleValueOf(value, groupExample).trim();
    if (!/^S[A-Z0-9]{2,20}$/.test(id)) {
      fail(`\`${echo(id)}\` is not a user group id.`, {
        hint: 'Mention the group (type @ and pick it) or give its id, like `group:S0123ABCD`.',
        example: groupExample,
      });
    }
    actors = { usergroup: id };
  } else if (value.key === undefined && !value.quoted) {
    const choice = value.value.toLowerCase();
    if (choice === 'everyone' || choice === 'admins') actors = choice;
  }
  if (actors === undefined) {
    const guess = suggest(value.key ?? value.value, ['everyone', 'admins', 'group']);
    fail(
      `\`${echo(value.text)}\` is not who may ${permission === 'admins' ? 'administer Vigil' : PERMISSION_WORDS[permission]}; use \`everyone\`, \`admins\` or \`group:<usergroup>\`.`,
      {
        hint: guess
          ? `Did you mean \`${guess === 'group' ? 'group:<usergroup>' : guess}\`?`
          : 'Type `/vigil help settings`.',
        example,
      },
    );
  }
  if (permission === 'admins') {
    // Everyone administering would be no administration at all.
    if (actors === 'everyone')
      fail('Vigil’s administrators are one user group, or `admins` (Slack’s workspace admins) again.', {
        example: groupExample,
      });
    return { kind: 'settings-admins', admins: actors };
  }
  return { kind: 'settings-actors', permission, actors };
}

const AUDIT_DEFAULT = 20;
const AUDIT_MAX = 100;

function parseAudit(args: readonly Token[]): CommandOf<'audit' | 'audit-export'> {
  const [n, extra] = args;
  if (extra) fail(`\`audit\` takes at most one number; got also ${alsoGot(extra)}.`);
  if (!n) return { kind: 'audit', limit: AUDIT_DEFAULT };
  if (n.key === undefined && !n.quoted && n.value.toLowerCase() === 'export') return { kind: 'audit-export' };
  if (n.key !== undefined) fail(`\`audit\` takes a number of entries, not \`${echo(n.text)}\`.`);
  return { kind: 'audit', limit: v.intInRange(n.value, 'The number of entries', 1, AUDIT_MAX) };
}

const AUDIT_HELP: HelpEntry = {
  usage: `${COMMAND} audit [n|export]`,
  summary: 'recent actions taken through Vigil',
  description:
    'Shows the latest n actions (1 to 100, default 20): who ignored, remediated, revealed or exported what. `audit export` sends every kept entry to your direct messages as a CSV file.',
  adminOnly: true,
  examples: [
    ex('audit', 'the last 20 actions'),
    ex('audit 50', 'the last 50'),
    ex('audit export', 'every kept entry, as CSV in your DM'),
  ],
};

const SETTINGS_HELP: HelpEntry = {
  usage: `${COMMAND} settings [<permission> everyone|admins|group:<usergroup>] | settings admins group:<usergroup>|admins | settings cards #channel open|closed`,
  summary:
    'who may search, subscribe, act on events, see credentials, unassign, decide recommendations, watch assets',
  description:
    "Shows the settings, or sets who may do what: `use` (search events, lists and explanations; default every full member), `creds` (search leaked credentials; default admins), `subscribe` (create and change digests and alerts; default admins), `act` (ignore, remediate and triage events: tags, notes, severity; `actors` works too; default admins), `reveal` (see a leaked credential in full), `export` (CSV of credentials), `unassign` (identifiers from matching policies), `recommend` (accept or reject identifier recommendations), `watch` (add, remove, disable or enable identifiers; default admins), `intel` (ask Threat Flow for a report; default admins), `sandbox` (send files to the sandbox; default admins), `contain` (revoke sessions, mark compromised, disable and re-enable accounts in the identity provider; default admins). `contain-approval on|off` (default on): a containment waits for a second holder of `contain`. Each is everyone (every full member), admins, or one user group. Guests (single- and multi-channel) may do nothing unless a permission is opened to a user group they are in. `admins` names who administers Vigil: one user group (with the operator's VIGIL_ADMINS); once named, Slack admins outside it have only what members have; `settings admins admins` gives it back to Slack's admins. A channel shared with another organization (Slack Connect) shows no event cards for pasted portal links, since people outside see them; `settings cards #channel open` (pick the channel with #) opens them there, `closed` shuts them again.",
  adminOnly: true,
  examples: [
    ex('settings', 'show the settings'),
    ex('settings use admins', 'only admins use Vigil at all'),
    ex(`settings creds group:${EXAMPLE.usergroup}`, 'members of one user group search credentials'),
    ex('settings subscribe everyone', 'every full member may create digests and alerts'),
    ex('settings actors admins', 'only admins act on events (default)'),
    ex(`settings act group:${EXAMPLE.usergroup}`, 'members of one user group act on events'),
    ex('settings reveal admins', 'only admins reveal credentials (default)'),
    ex('settings export everyone', 'everyone may export credentials'),
    ex('settings recommend everyone', 'everyone may accept or reject recommendations (default: admins)'),
    ex(`settings intel group:${EXAMPLE.usergroup}`, 'members of one user group ask Threat Flow'),
    ex(`settings admins group:${EXAMPLE.usergroup}`, 'one user group administers Vigil, not Slack admins'),
  ],
};

export const settingsSubcommands = [
  defineSubcommand({
    name: 'audit',
    inMessages: ['audit'],
    help: AUDIT_HELP,
    access: { audit: 'admin', 'audit-export': 'admin' },
    parse: parseAudit,
  }),
  defineSubcommand({
    name: 'settings',
    help: SETTINGS_HELP,
    // Showing the settings is answered for everyone; changing them is for admins. `contain-approval` is
    // containment's setting, run by its handler.
    access: {
      settings: 'member',
      'settings-actors': 'admin',
      'settings-admins': 'admin',
      'settings-cards': 'admin',
      'settings-contain-approval': 'admin',
    },
    parse: parseSettings,
  }),
];
