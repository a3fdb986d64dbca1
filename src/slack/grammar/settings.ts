/**
 * `settings …`: who may do what (`settings <permission> everyone|admins|group:<usergroup>`), Vigil's own
 * administrators (`settings admins …`), event cards in shared channels and the second approver of containment.
 */
import { PERMISSION_WORDS, PERMISSIONS, type Permission } from '../../kernel/permission-rules.js';
import { alsoGot, singleValueOf } from './args.js';
import type { Actors, Command } from './command.js';
import { echo, fail } from './errors.js';
import { EXAMPLE } from './examples.js';
import { suggest } from './suggest.js';
import type { Token } from './tokenize.js';

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
function parseCardsSetting(tokens: readonly Token[]): Command {
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
function parseContainApproval(value: Token | undefined, extra: Token | undefined): Command {
  const example = '/vigil settings contain-approval on';
  const choice = value?.key === undefined ? value?.value.toLowerCase() : undefined;
  if (extra || (choice !== 'on' && choice !== 'off'))
    fail('`settings contain-approval` takes `on` or `off`.', { example });
  return { kind: 'settings-contain-approval', on: choice === 'on' };
}

export function parseSettings(tokens: readonly Token[]): Command {
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
