import { describe, expect, it } from 'vitest';
import type { Command } from '../../../src/slack/grammar/index.js';
import { parseCommand } from '../../support/grammar.js';

describe('`alerts`', () => {
  it.each<[string, Command]>([
    ['alerts add', { kind: 'alerts-add-modal' }],
    [
      'alerts add severity:critical',
      { kind: 'alerts-add', identifierIds: 'all', severity: 'critical', types: [], hold: 'noncritical' },
    ],
    [
      'alerts add <#C0SECURTY|security> identifiers:3001,3002 severity:high,critical type:stealer_log,Leaked_Credential quiet:22:00-7:00 tz:europe/paris hold:ALL',
      {
        kind: 'alerts-add',
        channel: { id: 'C0SECURTY', name: 'security' },
        identifierIds: [3001, 3002],
        severity: ['high', 'critical'],
        types: ['stealer_log', 'leaked_credential'],
        quiet: { from: '22:00', to: '07:00' },
        timeZone: 'Europe/Paris',
        hold: 'all',
      },
    ],
    ['alerts list', { kind: 'alerts-list' }],
    ['alerts remove a1b2c3d4e5f6', { kind: 'alerts-remove', subscriptionId: 'a1b2c3d4e5f6' }],
    ['alerts PAUSE a1b2c3d4e5f6', { kind: 'alerts-pause', subscriptionId: 'a1b2c3d4e5f6' }],
    ['alerts resume a1b2c3d4e5f6', { kind: 'alerts-resume', subscriptionId: 'a1b2c3d4e5f6' }],
  ])('%s', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['alerts', '`alerts` needs an action'],
    ['alerts ad', 'Did you mean `alerts add`?'],
    ['alerts ad', '`ad` is not an `alerts` action; use `add`, `list`, `remove`, `pause` or `resume`.'],
    ['alerts add type:open_web', '`open_web` is a search category'],
    ['alerts add type:nonsense', 'nonsense'],
    ['alerts add quiet:22:00', '`quiet:` takes a start and an end like `22:00-07:00`'],
    ['alerts add quiet:25:00-07:00', '`quiet:` takes two 24-hour times'],
    ['alerts add quiet:07:00-07:00', 'Quiet hours must start and end at different times.'],
    ['alerts add hold:all', '`hold:` says what quiet hours hold back'],
    ['alerts add tz:Mars/Olympus quiet:22:00-07:00', 'is not an IANA time zone'],
    ['alerts add identifiers:all,3001', '`identifiers:all` cannot be combined with ids.'],
    ['alerts add at:09:00', '`at:` is not a filter of `alerts add`'],
    ['alerts remove', '`alerts remove` needs a subscription id; `/vigil alerts list` shows them.'],
    ['alerts pause a b', '`alerts pause` takes one subscription id'],
    ['alerts add token:abc', 'Never paste API keys or passwords in Slack'],
  ])('%s is refused with a clear message', (text, says) => {
    const result = parseCommand(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message + result.error.hint).toContain(says);
      expect(result.error.example).toMatch(/^\/vigil /);
    }
  });
});
