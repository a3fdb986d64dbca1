/**
 * Which events an identifier produces: only those of a category it lists (an event's own type, or the group
 * the type belongs to, both search types of the contract) and of a severity it lists. An identifier made
 * through the API with an empty list therefore produces nothing; the seed's (no lists) watch everything.
 */
import { SEED_TYPES } from './contract.js';
import type { SimIdentifier } from './types.js';

function groupOf(type: string): string | undefined {
  return Object.keys(SEED_TYPES).find((group) => SEED_TYPES[group]?.includes(type));
}

export function watches(identifier: SimIdentifier, type: string, severity: string): boolean {
  if (identifier.disabled === true) return false;
  const { categories, severities } = identifier;
  if (severities !== undefined && !severities.includes(severity)) return false;
  if (categories === undefined) return true;
  const group = groupOf(type);
  return categories.includes(type) || (group !== undefined && categories.includes(group));
}
