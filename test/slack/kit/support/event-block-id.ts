/** The event index of any block of an event group, or undefined. */
export function parseEventBlockId(blockId: string): number | undefined {
  const m = /^event:(\d{1,6})(?::(?:body|state|end))?$/.exec(blockId);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}
