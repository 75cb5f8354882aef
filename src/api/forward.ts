// A stand-in for an api that is not there yet: the console's client while it connects
// (src/target.ts ApiOnceConnected). Its requests are not written out one by one: a class made by
// forwardingTo<T>() answers every method of T that returns a promise and that the class does not
// define itself by waiting for `connected()` and making the same call there, so a new method of
// the client needs no edit in the stand-in, and the compiler still types each call as T's.

/** The methods of T that answer with a promise: its requests. */
type Requests<T> = { [K in keyof T as T[K] extends (...a: never[]) => Promise<unknown> ? K : never]: T[K] };

type Method = (...a: unknown[]) => unknown;

/**
 * A base class for a stand-in for T, which defines the requests named in `Own` itself. Its constructor returns a proxy over the instance (the
 * subclass's fields, private ones included, are set on that proxy): what the instance has (its own
 * and its class's members) is read from it as usual; any other name is a request of T, forwarded.
 * `then` is never forwarded, so a stand-in is not taken for a promise.
 */
export function forwardingTo<T extends object, Own extends keyof T = never>() {
  abstract class Forwarding {
    /** The api the requests go to, once there (a rejection fails each request as it did). */
    protected abstract connected(): Promise<T>;

    constructor() {
      const forwarded = new Map<string, Method>();
      return new Proxy(this, {
        get(target, key, receiver) {
          if (typeof key === 'symbol' || key === 'then' || key in target) return Reflect.get(target, key, receiver) as unknown;
          let fn = forwarded.get(key);
          if (!fn) {
            fn = (...a) => (receiver as Forwarding).connected().then((api) => (api as unknown as Record<string, Method>)[key](...a));
            forwarded.set(key, fn);
          }
          return fn;
        },
      });
    }
  }
  return Forwarding as abstract new () => Forwarding & Omit<Requests<T>, Own>;
}
