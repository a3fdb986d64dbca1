/** Fault injection: rules matched in order, each answering `times` requests before it is used up. */
import type { FaultResponse, FaultRule } from './types.js';

export class FaultSet {
  private readonly rules: { rule: FaultRule; remaining: number }[] = [];

  add(rule: FaultRule): void {
    this.rules.push({ rule, remaining: rule.times ?? 1 });
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** The response of the first live rule matching the request, consuming one use of it. */
  take(method: string, path: string): FaultResponse | undefined {
    const index = this.rules.findIndex(({ rule, remaining }) => remaining > 0 && matches(rule, method, path));
    const entry = this.rules[index];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.rules.splice(index, 1);
    return entry.rule.response;
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) return false;
  if (rule.path === undefined) return true;
  return typeof rule.path === 'string' ? path.startsWith(rule.path) : rule.path.test(path);
}
