/** The timer behind the digest and alert schedulers, injected so tests drive ticks by hand. */
export interface Ticker {
  every(ms: number, fn: () => void): { cancel(): void };
}

export const realTicker: Ticker = {
  every(ms, fn) {
    const handle = setInterval(fn, ms);
    handle.unref();
    return { cancel: () => clearInterval(handle) };
  },
};
