/**
 * A parsed `events` command back to text people can paste, for "run it again" answers. Relative times stay
 * relative (`since:7d`), so running it again looks at the same window from now.
 */
import type { Command, EventsSearchSpec, TimeBound } from '../../slack/grammar/index.js';
import { COMMAND } from '../../slack/grammar/index.js';

/** A search as typed: its target is the identifier id, `all`, or a name (quoted when it has spaces). */
type EventsCommand = EventsSearchSpec & { identifierId: number | string };
type SecretModalCommand = Extract<Command, { kind: 'events-secret-modal' }>;

function quoted(value: string): string {
  return /^[^\s"'“”‘’`,]+$/.test(value) ? value : `"${value.replaceAll('"', "'")}"`;
}

function bound(b: TimeBound): string {
  switch (b.kind) {
    case 'relative':
      return `${b.amount}${b.unit}`;
    case 'date':
      return b.date;
    case 'instant':
      return b.iso;
  }
}

function queryText(q: NonNullable<EventsCommand['query']>): string {
  switch (q.type) {
    case 'domain':
      return `domain:${quoted(q.fqdn)}`;
    case 'email':
      return `email:${quoted(q.email)}`;
    case 'keyword':
      return `keyword:${quoted(q.keyword)}`;
    case 'query_string':
      return `query:${quoted(q.query_string)}`;
    case 'username':
      return `username:${quoted(q.username)}`;
    case 'github_repository':
      return `github:${q.repo_owner}/${q.repo_name}`;
    case 'brand':
      return `brand:${quoted(q.name)}`;
    case 'name':
      return `name:${quoted(`${q.first_name} ${q.last_name}`)}${q.is_strict ? ' strict' : ''}`;
    case 'bin':
      return `bin:${quoted(q.bin)}`;
    case 'ip':
      return `ip:${quoted(q.ip)}`;
    case 'azure_tenant':
      return `azure_tenant:${quoted(q.tenant_id)}`;
  }
}

export function eventsCommandText(cmd: EventsCommand): string {
  const target = typeof cmd.identifierId === 'number' ? String(cmd.identifierId) : quoted(cmd.identifierId);
  const parts = [COMMAND, 'events', target];
  if (cmd.query) parts.push(queryText(cmd.query));
  const f = cmd.filters;
  if (f.severity !== undefined)
    parts.push(`severity:${Array.isArray(f.severity) ? f.severity.join(',') : f.severity}`);
  if (f.types?.length) parts.push(`type:${f.types.join(',')}`);
  if (f.statuses?.length) parts.push(`status:${f.statuses.join(',')}`);
  if (f.tags?.length) parts.push(`tag:${f.tags.map(quoted).join(',')}`);
  if (f.since) parts.push(`since:${bound(f.since)}`);
  if (f.until) parts.push(`until:${bound(f.until)}`);
  if (cmd.order) parts.push(`order:${cmd.order}`);
  if (cmd.size !== undefined) parts.push(`size:${cmd.size}`);
  if (cmd.sort !== undefined) parts.push(`sort:${cmd.sort}`);
  return parts.join(' ');
}

export function secretCommandText(cmd: Pick<SecretModalCommand, 'identifierId' | 'queryType'>): string {
  return `${COMMAND} events ${cmd.identifierId} ${cmd.queryType}`;
}
