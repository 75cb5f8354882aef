// The call log's `/` filter under way: the archive's walk of the whole log (src/archive/filter.ts),
// a slice of a few ms at a time in turns of the event loop, so a keystroke never waits for the
// scan, and when what it found is worth drawing. A plain class (no React, no zustand): the call
// log's slice (calls.ts) wraps one a text; test/store/call-scan.test.ts drives it on its own.
import type { CallOrder, FilterScan } from '../archive/index.js';

/** An order in which a walk (newest first) can find a match that sorts above those found before. */
export const sortsFound = (order: CallOrder | undefined): boolean => order !== undefined && !(order.by === 'created' && order.desc);

/**
 * How often a walk in such an order draws its matches again while it finds more: each draw sorts
 * what was found into what was drawn, so a draw waits for a quarter more matches (or a second).
 */
const SORTED_DRAW_MS = { least: 100, most: 1000 } as const;

/** In the archive's own order, the count is drawn again once this many more matches are found. */
const UNSORTED_DRAW_EVERY = 1000;

/** What a scan needs of the archive's walk (FilterScan). */
export type ScanRun = Pick<FilterScan, 'done' | 'count' | 'step' | 'reorder' | 'positions' | 'indexOf'>;

/** What the screen shows of the scan: the rows it holds, the count it says, and the rows its window holds when full. */
export interface Shown {
  rows: number;
  total: number;
  window: number;
}

export class CallScan {
  #timer: ReturnType<typeof setImmediate> | undefined;
  /** when its matches were last drawn (performance.now()) */
  #drawn = 0;
  #stopped = false;

  /** `run`: the archive's walk for `text`; `order`: the log's (undefined: newest first). */
  constructor(
    readonly text: string,
    readonly run: ScanRun,
    private order: CallOrder | undefined,
  ) {}

  /** Every row has been looked at. */
  get done(): boolean {
    return this.run.done;
  }

  /** Matches found so far. */
  get count(): number {
    return this.run.count;
  }

  /** The log's order changed: the matches found are sorted again, the walk goes on. */
  reorder(order: CallOrder | undefined): void {
    this.order = order;
    this.run.reorder(order);
  }

  /**
   * Walks one slice, and says whether the matches are to be drawn now: when the walk is done,
   * while the screen lacks rows a match found could fill, or as more are found without redrawing
   * for every slice (in a sorted order a match found may go above the rows drawn: those are drawn
   * again as time passes). `now` (performance.now()) is when the slice ends.
   */
  step(shown: Shown, now = performance.now()): { done: boolean; draw: boolean } {
    const before = this.run.count;
    const done = this.run.step();
    const found = this.run.count;
    const short = shown.rows < shown.window && found > before;
    const since = now - this.#drawn;
    const more = sortsFound(this.order)
      ? found > shown.total && ((since >= SORTED_DRAW_MS.least && found - shown.total >= shown.total / 4) || since >= SORTED_DRAW_MS.most)
      : found - shown.total >= UNSORTED_DRAW_EVERY;
    const draw = done || short || more;
    if (draw) this.#drawn = now;
    return { done, draw };
  }

  /** Runs `slice` in the next turn of the event loop, unless stopped meanwhile. */
  next(slice: () => void): void {
    if (this.#stopped) return;
    this.#timer = setImmediate(() => {
      this.#timer = undefined;
      if (!this.#stopped) slice();
    });
  }

  /** No more slices (a new text, new filters, the store disposed). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearImmediate(this.#timer);
    this.#timer = undefined;
  }
}
