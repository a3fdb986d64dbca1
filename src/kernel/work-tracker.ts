/**
 * Tracks work that continues after a Slack ack (response_url posts, API calls), so shutdown can drain it
 * instead of cutting a user's request in half.
 */
export class WorkTracker {
  private readonly inFlight = new Set<Promise<unknown>>();
  private accepting = true;

  get isAccepting(): boolean {
    return this.accepting;
  }

  /** Runs `task` in the background; its rejection is handled by `onError`, never left unhandled. */
  run(task: () => Promise<unknown>, onError: (err: unknown) => unknown): void {
    const p = Promise.resolve()
      .then(task)
      .catch(onError)
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Resolves once nothing is in flight, without stopping intake (tests wait for a request's follow-ups). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops new intake (callers check isAccepting) and waits for in-flight work, at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<{ drained: boolean; pending: number }> {
    this.accepting = false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref();
    });
    while (this.inFlight.size > 0) {
      const outcome = await Promise.race([Promise.allSettled([...this.inFlight]), timeout]);
      if (outcome === 'timeout') break;
    }
    clearTimeout(timer);
    return { drained: this.inFlight.size === 0, pending: this.inFlight.size };
  }
}
