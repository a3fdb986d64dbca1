/**
 * The change channel's followers (alert messages follow their events): a change to an event some message
 * shows is recorded before and followed after; one no message shows is neither, unless a message showing it
 * was posted while the change was under way, which is followed still. The follow runs in the background.
 */
import { describe, expect, it } from 'vitest';
import { EventChanges, type EventStateChange } from '../../../src/domain/events/changes.js';
import { WorkTracker } from '../../../src/kernel/work-tracker.js';

function world() {
  const shown = new Map<string, string[]>();
  const told: string[] = [];
  const errors: unknown[] = [];
  const tracker = new WorkTracker();
  const changes = new EventChanges();
  changes.follow(
    {
      record: async (c) => {
        told.push(`record ${c.uid}`);
      },
      follow: async (c) => {
        told.push(`follow ${c.uid}`);
      },
    },
    {
      shownIn: { messagesOf: async (ws, uid) => shown.get(`${ws}:${uid}`) ?? [] },
      background: tracker,
      onError: (err) => errors.push(err),
    },
  );
  return { shown, told, errors, tracker, changes };
}

const change = (uid: string): EventStateChange => ({
  workspaceId: 'T1',
  uid,
  action: 'ignore',
  by: 'U1',
  at: 0,
  generation: 1,
});

describe('followers of event changes', () => {
  it('records and follows the change of an event a message shows, and nothing for one none shows', async () => {
    const w = world();
    w.shown.set('T1:shown', ['C1:1.0']);
    for (const uid of ['shown', 'alone']) {
      await w.changes.preparing(change(uid));
      w.changes.made(change(uid));
    }
    await w.tracker.idle();
    expect(w.told).toEqual(['record shown', 'follow shown']);
    expect(w.errors).toEqual([]);
  });

  it('follows a change whose event a message came to show while it was under way', async () => {
    const w = world();
    await w.changes.preparing(change('late'));
    w.shown.set('T1:late', ['C1:2.0']);
    w.changes.made(change('late'));
    await w.tracker.idle();
    expect(w.told).toEqual(['follow late']);
  });

  it('follows a recorded change even when its message is gone by then', async () => {
    const w = world();
    w.shown.set('T1:gone', ['C1:3.0']);
    await w.changes.preparing(change('gone'));
    w.shown.delete('T1:gone');
    w.changes.made(change('gone'));
    await w.tracker.idle();
    expect(w.told).toEqual(['record gone', 'follow gone']);
  });
});
