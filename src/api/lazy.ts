// A zod schema built on first use rather than when its module loads: building every schema of the
// client costs a command's start more than the request it makes, and a command reads one or two.

/**
 * Stands for the schema `build` makes, building it at the first read. Name `build` (a named function
 * expression): test/commands/builtins.test.ts sees which ran.
 *
 * The stand-in is a plain object whose prototype traps the first read: that read builds the schema,
 * copies its own properties onto the stand-in and gives it the schema's prototype, so from then on
 * the stand-in is the schema in all but identity and a read is an ordinary property load. (A Proxy
 * in front of it for good slowed every parse of a record: zod reads its nested
 * schemas' properties for each field.)
 */
export function lazySchema<T extends object>(build: () => T): T {
  const stub = Object.create(null) as T;
  let built: T | undefined;
  const real = (): T => {
    if (built) return built;
    built = build();
    Object.defineProperties(stub, Object.getOwnPropertyDescriptors(built));
    Object.setPrototypeOf(stub, Object.getPrototypeOf(built));
    return built;
  };
  // Only reached while the stand-in has no properties of its own: before the build.
  const first = new Proxy(Object.create(null) as object, {
    get: (_, key) => Reflect.get(real(), key, stub) as unknown,
    has: (_, key) => Reflect.has(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value, stub),
    getPrototypeOf: () => Object.getPrototypeOf(real()),
  });
  Object.setPrototypeOf(stub, first);
  return stub;
}
