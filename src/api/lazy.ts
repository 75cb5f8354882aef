// A zod schema built on first use rather than when its module loads: building every schema of the
// client costs a command's start more than the request it makes, and a command reads one or two.

/**
 * Stands for the schema `build` makes (every property read is the built schema's), building it at the
 * first read. Name `build` (a named function expression): test/commands/start-cost.test.ts sees which ran.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = () => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key) as unknown,
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: the stand-in object holds none of them (a Proxy invariant).
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
