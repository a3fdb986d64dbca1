/**
 * Crashes between two port calls, by wrapping a port the code under test already receives (a repository, a
 * publisher): a process that dies is one whose call never returns, so nothing after it runs. The code under
 * test carries no hook for it.
 */

type AsyncMethod = (...args: never[]) => Promise<unknown>;
/** The names of `T`'s methods that return a promise. */
type MethodOf<T> = { [K in keyof T]: T[K] extends AsyncMethod ? K : never }[keyof T];
type Args<T, K extends keyof T> = T[K] extends (...args: infer A) => Promise<unknown> ? A : never;
type Result<T, K extends keyof T> = T[K] extends (...args: never[]) => Promise<infer R> ? R : never;

/** `port` whose `method` goes through `around` (given the arguments and the call itself); the rest is the port's. */
function wrap<T extends object, K extends MethodOf<T>>(
  port: T,
  method: K,
  around: (args: Args<T, K>, call: () => Promise<Result<T, K>>) => Promise<Result<T, K>>,
): T {
  return new Proxy(port, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop !== method) return value.bind(target);
      return (...args: Args<T, K>) => around(args, () => value.apply(target, args));
    },
  });
}

/** `port` whose `method` runs `then` after each call completes, before the caller sees the result. */
export function afterCall<T extends object, K extends MethodOf<T>>(
  port: T,
  method: K,
  then: (args: Args<T, K>, result: Result<T, K>) => Promise<void> | void,
): T {
  return wrap(port, method, async (args, call) => {
    const result = await call();
    await then(args, result);
    return result;
  });
}

const never = <R>() => new Promise<R>(() => {});

/** One process's death: `dead` resolves when it dies; from then on the calls it wrapped never return. */
export class Crash {
  readonly dead: Promise<void>;
  private died = false;
  private resolve: () => void = () => {};

  constructor() {
    this.dead = new Promise<void>((resolve) => {
      this.resolve = resolve;
    });
  }

  /**
   * `port` whose `method`, once a call for which `when` holds has done its work, never returns: the process
   * died right after that call.
   */
  after<T extends object, K extends MethodOf<T>>(
    port: T,
    method: K,
    when: (args: Args<T, K>, result: Result<T, K>) => boolean = () => true,
  ): T {
    return wrap(port, method, async (args, call) => {
      if (this.died) return never();
      const result = await call();
      if (!this.died && !when(args, result)) return result;
      this.died = true;
      this.resolve();
      return never();
    });
  }
}
