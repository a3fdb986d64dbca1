/**
 * Dates as pydantic reads them. Requests are held to the published contract by openapi/validator.ts before any
 * handler runs; handlers only need to turn the dates they were given into times.
 */

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** ms of an ISO-8601 date or date-time (naive values are UTC, as pydantic reads them), or NaN. */
export function parseIsoMs(value: string): number {
  if (!ISO_DATE_TIME.test(value)) return Number.NaN;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.includes('T');
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : hasZone ? value : `${value}Z`);
}
