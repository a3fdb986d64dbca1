/**
 * The audit log names work done by a workflow step: Slack tells the app the step and the workflow's run
 * (`Wx…`), never the workflow's name, so the line says "via workflow run `Wx…`".
 */
import { describe, expect, it } from 'vitest';
import { auditLine } from '../../../src/domain/audit-blocks.js';
import type { AuditEntry } from '../../../src/store/index.js';

const AT = Date.UTC(2026, 10, 26, 9, 0);

function entry(fields: Partial<AuditEntry>): AuditEntry {
  return { teamId: 'T1', userId: 'U0MEMBER1', action: 'event.ignore', target: 'leak/1', at: AT, ...fields };
}

describe('audit lines of workflow steps', () => {
  it('names the run of a workflow that acted, and nothing for other surfaces', () => {
    const line = auditLine(
      entry({ surface: 'via workflow Wx0ABC123', detail: 'workflow step Act on an event' }),
    );
    expect(line).toContain('<@U0MEMBER1> ignored event `leak/1` (via workflow run `Wx0ABC123`)');
    expect(auditLine(entry({ surface: 'button' }))).not.toContain('workflow');
    // A surface that is not a run id in Vigil's shape is not quoted as one.
    expect(auditLine(entry({ surface: 'via workflow <!here>' }))).not.toContain('here');
  });

  it('says what a person decided through “Ask a person to decide”', () => {
    const line = auditLine(
      entry({ action: 'workflow.decision', detail: 'escalate', surface: 'via workflow Wx0ABC124' }),
    );
    expect(line).toContain(
      'decided “escalate” on event `leak/1` (Ask a person to decide) (via workflow run `Wx0ABC124`)',
    );
  });
});
