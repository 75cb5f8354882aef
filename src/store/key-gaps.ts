// Background work that keeps out of the keys' way. While keys come close together (a held j, a
// run of typing), work the store does on its own (re-reading the call log as a sync writes, the
// live refresh, a list's answer arriving) waits for the gap just after a key has been drawn,
// where it has until the next key, rather than land in front of a key at a random moment. When
// the keys stop it runs at once. The keypress dispatcher says when a key has been drawn
// (actions.keyHandled).

/** Keys this close together are a run: work waits for the gap after the next one. */
const KEYS_ACTIVE_MS = 150;

interface Waiting {
  fn: () => void;
  /** Run even when disposed (a promise someone awaits), else dropped. */
  always: boolean;
}

export class KeyGaps {
  #lastKeyAt = -Infinity;
  #queue: Waiting[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #immediate: ReturnType<typeof setImmediate> | undefined;
  #disposed = false;

  constructor(
    private readonly activeMs = KEYS_ACTIVE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keys are coming now. */
  get keysActive(): boolean {
    return this.now() - this.#lastKeyAt < this.activeMs;
  }

  /** Runs `fn` now when no key came lately, else in the gap after the next key (or once they stop). */
  run(fn: () => void): void {
    this.#enqueue({ fn, always: false });
  }

  /** Resolves now when no key came lately, else in the gap after the next key (and at once once disposed). */
  gap(): Promise<void> {
    return new Promise((resolve) => this.#enqueue({ fn: resolve, always: true }));
  }

  /** A key was dispatched and its frame drawn: what waits runs next, before the next read of the terminal. */
  keyDrawn(): void {
    this.#lastKeyAt = this.now();
    if (this.#queue.length === 0 || this.#immediate) return;
    this.#immediate = setImmediate(() => {
      this.#immediate = undefined;
      this.#flush();
    });
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    if (this.#immediate) clearImmediate(this.#immediate);
    for (const w of this.#queue.splice(0)) if (w.always) w.fn();
  }

  #enqueue(w: Waiting): void {
    if (this.#disposed) return void (w.always && w.fn());
    if (!this.keysActive) return w.fn();
    this.#queue.push(w);
    this.#arm();
  }

  /** The fallback: when no key comes for activeMs, the work runs then. */
  #arm(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        if (this.keysActive) return this.#arm();
        this.#flush();
      },
      Math.max(1, this.#lastKeyAt + this.activeMs - this.now()),
    );
    this.#timer.unref?.();
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const w of this.#queue.splice(0)) if (!this.#disposed || w.always) w.fn();
  }
}
