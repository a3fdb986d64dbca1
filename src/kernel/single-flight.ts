/**
 * One piece of work per key at a time in this process: callers who ask while it runs share its result (or
 * its failure) instead of starting it again. For reads that cost an upstream call (a token test, an AI text).
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const pending = this.running.get(key);
    if (pending !== undefined) return pending;
    const started = work().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}
