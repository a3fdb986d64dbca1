/**
 * Event uids are `<index>/<source>/<id>` where `<id>` may itself contain slashes: split on the first two
 * slashes only.
 */
import { ValidationError } from './errors.js';

/** An event uid split on its first two slashes: `<index>/<source>/<id>`, where id may contain slashes. @internal */
export interface EventUidParts {
  index: string;
  source: string;
  id: string;
}

/** @internal */
export function splitEventUid(uid: string): EventUidParts {
  const first = uid.indexOf('/');
  const second = first < 0 ? -1 : uid.indexOf('/', first + 1);
  const parts =
    second < 0
      ? undefined
      : { index: uid.slice(0, first), source: uid.slice(first + 1, second), id: uid.slice(second + 1) };
  // Dot segments would be resolved away by URL parsing and could retarget the request path.
  const dotSegment = (s: string) => s.split('/').some((seg) => seg === '.' || seg === '..');
  if (typeof uid !== 'string' || !parts?.index || !parts.source || !parts.id || dotSegment(uid)) {
    throw new ValidationError('Not an event uid: expected <index>/<source>/<id>', [
      { field: 'uid', message: 'expected <index>/<source>/<id>' },
    ]);
  }
  return parts;
}

/**
 * The uid as path segments for `…/activities/{index}/{source}/{id}/…`: each segment percent-encoded, but the
 * slashes inside `id` left as they are (the server routes `id` as a path parameter).
 */
export function eventUidPath(uid: string): string {
  const { index, source, id } = splitEventUid(uid);
  const idPath = id
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return `${encodeURIComponent(index)}/${encodeURIComponent(source)}/${idPath}`;
}
