/** Event type names against the published document: production names, filter values and the mapping. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EVENT_CATEGORIES,
  EVENT_FILTER_TYPES,
  EVENT_TYPES,
  eventTypeFilterValues,
  PRODUCTION_EVENT_TYPES,
  unfilterableEventTypes,
  ValidationError,
} from '../../../src/api/index.js';
import { eventSearchBody } from '../../../src/api/resources/events.js';

const doc = JSON.parse(
  readFileSync(
    new URL('../../../packages/playground/src/sim/api/openapi/firework-v4-openapi.json', import.meta.url),
    'utf8',
  ),
) as { components: { schemas: Record<string, { enum?: string[]; properties?: Record<string, unknown> }> } };
const schemas = doc.components.schemas;

describe('event type names', () => {
  it('production names are the document’s ActivityModelName (what metadata.type holds)', () => {
    expect([...PRODUCTION_EVENT_TYPES].sort()).toEqual([...(schemas.ActivityModelName?.enum ?? [])].sort());
    expect(PRODUCTION_EVENT_TYPES.length).toBeGreaterThan(70);
    expect(JSON.stringify(schemas.FeedItemMetadata)).toContain('#/components/schemas/ActivityModelName');
  });

  it('filter values are the document’s SearchType, which holds the categories and most production names', () => {
    expect([...EVENT_FILTER_TYPES].sort()).toEqual([...(schemas.SearchType?.enum ?? [])].sort());
    expect(JSON.stringify(schemas.FeedFilters)).toContain('#/components/schemas/SearchType');
    for (const c of EVENT_CATEGORIES) expect(EVENT_FILTER_TYPES).toContain(c);
    expect(EVENT_TYPES).toBe(EVENT_CATEGORIES);
    for (const name of ['stealer_log', 'forum_post', 'blog_post', 'bucket', 'paste', 'leak']) {
      expect(EVENT_FILTER_TYPES).toContain(name);
    }
  });

  it('maps every production name to filter values the contract accepts, or reports it unfilterable', () => {
    for (const name of PRODUCTION_EVENT_TYPES) {
      const values = eventTypeFilterValues([name]);
      for (const v of values) expect(EVENT_FILTER_TYPES).toContain(v);
      expect(values.length === 1 || unfilterableEventTypes([name]).length === 1).toBe(true);
    }
    expect(eventTypeFilterValues(['docker_image', 'docker_repository', 'stealer_log', 'Leak'])).toEqual([
      'docker',
      'stealer_log',
      'leak',
    ]);
    expect(unfilterableEventTypes(['sdo_malware', 'paste'])).toEqual(['sdo_malware']);
  });

  it('the search body sends mapped values and refuses names no filter can select', () => {
    const body = eventSearchBody({ identifierId: 1, filters: { type: ['lookalike', 'forum_post', 'leak'] } });
    expect(body.filters).toEqual({ type: ['domain', 'forum_post', 'leak'] });
    expect(() => eventSearchBody({ identifierId: 1, filters: { type: ['sdo_malware'] } })).toThrow(
      ValidationError,
    );
    expect(() => eventSearchBody({ identifierId: 1, filters: { type: ['sdo_malware'] } })).toThrow(
      /sdo_malware: not an event type the search can filter on/,
    );
  });
});
