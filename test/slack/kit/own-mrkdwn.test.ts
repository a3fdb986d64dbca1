/**
 * Vigil's own mrkdwn reaches Slack escaped: its hints (`/vigil tenant <id>`, `/vigil events <identifier-id>`)
 * show as typed instead of as link syntax, while the control sequences it builds on purpose still work.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTenants } from '../../../src/domain/connection-blocks.js';
import { renderSettings } from '../../../src/domain/settings-blocks.js';
import { renderHome } from '../../../src/features/home/blocks.js';
import { slackDate } from '../../../src/slack/kit/dates.js';
import { escapeMrkdwn, ownMrkdwn, portalLink, userMention } from '../../../src/slack/kit/text.js';
import { defaultSettings } from '../../../src/store/index.js';
import { helpMessage, SUBCOMMANDS } from '../../support/grammar.js';
import { strayMarkupIn } from '../../support/mrkdwn-scan.js';
import { NOW } from './fixtures.js';

const connection = {
  teamId: 'T0001',
  apiHost: 'api.flare.io',
  sealedApiKey: 'v1.sealed',
  apiKeyId: 7,
  organizationId: 1001,
  tenantId: 2001,
  tenantName: 'Acme <SOC> & co',
  scopes: ['firework'],
  connectedBy: 'U0ADMIN01',
  connectedAt: NOW,
};

describe('ownMrkdwn', () => {
  it('escapes the hints Vigil writes and keeps what it writes on purpose', () => {
    expect(ownMrkdwn('Switch with `/vigil tenant <id>` & more > less')).toBe(
      'Switch with `/vigil tenant &lt;id&gt;` &amp; more &gt; less',
    );
    const intended = [
      userMention('U024BE7LH') ?? '',
      slackDate(NOW),
      '<#C0GENERAL1>',
      '<!subteam^S0SEC01>',
      portalLink('https://app.flare.io/#/a?x=1&y=2', 'Open in portal') ?? '',
    ].join(' ');
    expect(ownMrkdwn(intended)).toBe(intended);
  });

  it('never lets a broadcast or a link Vigil did not build through', () => {
    expect(ownMrkdwn('<!here> <!channel|channel> <!everyone> <javascript:x|y> <@U1|x>')).toBe(
      '&lt;!here&gt; &lt;!channel|channel&gt; &lt;!everyone&gt; &lt;javascript:x|y&gt; &lt;@U1|x&gt;',
    );
  });

  it('leaves text built with escapeMrkdwn unchanged, whatever it held', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const safe = escapeMrkdwn(s);
        expect(ownMrkdwn(safe)).toBe(safe);
        expect(ownMrkdwn(ownMrkdwn(s))).toBe(ownMrkdwn(s));
        expect(strayMarkupIn({ text: ownMrkdwn(s) })).toEqual([]);
      }),
    );
  });
});

describe("Vigil's surfaces", () => {
  it('App Home: its command list and admin hints show `<id>` as typed', () => {
    const home = renderHome({
      connection,
      fromEnvironment: false,
      isAdmin: true,
      settings: defaultSettings(),
      subscriptions: [],
      audit: [],
    });
    expect(strayMarkupIn(home)).toEqual([]);
    const text = JSON.stringify(home);
    expect(text).toContain('`/vigil events &lt;identifier-id&gt;`');
    expect(text).toContain('`/vigil tenant &lt;id&gt;`');
    expect(text).toContain('<@U0ADMIN01>');
  });

  it('help, for every subcommand, and the settings and tenants hints', () => {
    for (const topic of [undefined, ...SUBCOMMANDS]) {
      expect(strayMarkupIn(helpMessage(topic)), topic ?? 'help').toEqual([]);
    }
    expect(strayMarkupIn(renderSettings(defaultSettings().permissions))).toEqual([]);
    for (const isAdmin of [true, false]) {
      const page = renderTenants({
        tenants: [{ id: 2001, name: 'Acme <SOC>', description: 'a & b' }],
        current: 2001,
        first: 1,
        total: undefined,
        nextRef: undefined,
        isAdmin,
      });
      expect(strayMarkupIn(page)).toEqual([]);
      expect(JSON.stringify(page)).toContain('`/vigil tenant &lt;id&gt;`');
    }
  });
});
