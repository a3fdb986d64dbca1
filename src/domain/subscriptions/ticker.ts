/** The timer behind the digest and alert schedulers and the intel follower, injected so tests drive ticks by hand. */
export interface Ticker {
  /**
   * Calls `fn` every `ms`. `fn` returns the tick it started (or the one still running), already settled for
   * errors, so a driver that fires it by hand can wait for the work.
   */
  every(ms: number, fn: () => Promise<unknown>): { cancel(): void };
}

export const realTicker: Ticker = {
  every(ms, fn) {
    const handle = setInterval(() => void fn(), ms);
    handle.unref();
    return { cancel: () => clearInterval(handle) };
  },
};
