/**
 * The plan a streamed answer shows: the API calls a command makes, in the words of what they ask, each a task
 * updated as it runs. Vigil knows its commands' calls, so the plan is said before the first call. Pure.
 */
import type { Command } from '../../slack/grammar/index.js';
import type { PlanTask } from './stream.js';

function since(c: { filters?: { since?: unknown } }): string {
  const s = c.filters?.since as { kind: string; amount?: number; unit?: string; date?: string } | undefined;
  if (s === undefined) return '';
  if (s.kind === 'relative') return ` over the last ${s.amount}${s.unit}`;
  return ` since ${s.date ?? 'the time given'}`;
}

/** What the command asks the threat-intel API, as a task title. */
function apiCall(command: Command): string {
  switch (command.kind) {
    case 'events':
      return `Search the events of identifier ${command.identifierId}${since(command)}`;
    case 'events-name':
      return `Find the identifier named ${command.name} and search its events${since(command)}`;
    case 'events-all':
      return `Search the events of every identifier${since(command)}`;
    case 'creds':
      return `Search leaked credentials (${command.query.type} ${command.query.value})${since(command)}`;
    case 'explain':
      return `Ask for an explanation of event ${command.eventUid}`;
    case 'identifiers':
      return 'List the workspace’s identifiers';
    case 'status':
      return 'Check the connection and the API quota';
    case 'snoozes':
      return 'List what is snoozed';
    default:
      return `Run /vigil ${command.kind.replace('-', ' ')}`;
  }
}

export interface Plan {
  title: string;
  tasks: PlanTask[];
}

export const TASK = { access: 'access', api: 'api', answer: 'answer' } as const;

export function planFor(command: Command): Plan {
  return {
    title: 'Answering with Vigil’s own commands',
    tasks: [
      { id: TASK.access, title: 'Check what you may see' },
      { id: TASK.api, title: apiCall(command) },
      { id: TASK.answer, title: 'Prepare the answer with its buttons' },
    ],
  };
}
