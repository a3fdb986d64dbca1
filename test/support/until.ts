/**
 * Waits in real time until `check` gives a value (anything but undefined, null or false): for what other
 * processes, sockets and event loops do. Never for time Vigil measures, which tests move through the
 * injected clock.
 */
export async function until<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
  stepMs = 25,
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) {
      return value as Exclude<T, undefined | null | false>;
    }
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
