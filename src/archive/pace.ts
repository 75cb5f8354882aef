// How many history requests a sync keeps in flight: adapted to what the service says, the way
// TCP adapts its window. It starts at two and doubles with every round of answers (one more per
// success) up to the ceiling, then grows by one per round; a 429, a Retry-After on any answer,
// or throughput falling while requests were queued halves it (at most once per round, so a burst
// of refusals is one decrease), and a Retry-After holds every new request until it has passed.
// X-RateLimit-* headers, where the service sends them, cap it further: never more at once than
// the window's limit, and never more started within the window's length than the limit allows,
// counting this sync's own starts (a window sliding over them, which a fixed window never
// allows fewer than) and what the service counted of other clients (the console's own requests,
// another machine): its Remaining less the sync's own starts it had counted, held until the
// window resets. A request is taken to be counted as long after it starts as the others were,
// so the window slides over the starts (each moved up to its answer less the shortest round trip,
// once answered: it may have left late) with a little room for jitter, not a whole round trip.
// Answers come back in another order than the service counted them (a large page takes longer
// to read), so only the answer to the latest request started speaks for what is left.
// A refusal also spaces the starts out to the rate the service was answering just before it
// (requests started in the last second), which shrinks again slowly with each success: a service
// that sends no headers is kept just under its limit rather than hit and backed off in turns.
// A service that refuses one request again and again ends the sync with one error instead of
// waiting forever.
import type { LoadSignal } from '../api/http.js';

/** The service refused every request for too long: the sync stops, saying so once. */
class RateLimitedError extends Error {
  override name = 'RateLimitedError';
}

/** Refusals of one request in a row after which the sync gives up. */
const REFUSALS_TO_GIVE_UP = 6;
/** A Retry-After longer than this ends the sync at once: it says when to try again. */
const LONGEST_WAIT_MS = 60_000;
/** The wait after a 429 that gave no Retry-After (doubled with each refusal in a row). */
const DEFAULT_WAIT_MS = 250;
/** Throughput is compared over rounds of at least this long. */
const EPOCH_MS = 1000;

export interface PaceFigures {
  /** the most requests in flight at once */
  reached: number;
  /** requests answered 429 */
  refused: number;
  /** the longest run of 429s without a success between */
  refusedInRow: number;
}

export class Pace {
  #limit: number;
  #threshold: number;
  readonly #ceiling: number;
  #inFlight = 0;
  #pausedUntil = 0;
  #lastDecrease = 0;
  #refusedRun = 0;
  #rttMs = 200;
  /** requests of other clients in the X-RateLimit window, as the latest answer counted, and until when (ms since the epoch) */
  #others: { n: number; until: number } | undefined;
  /** requests started so far: the number of the latest, as `start` hands it out */
  #started = 0;
  /** the request whose answer last set `#others` */
  #budgetFrom = 0;
  #headerLimit = Infinity;
  /** the requests the X-RateLimit window allows: its Limit, else the most its Remaining implied */
  #windowLimit = Infinity;
  /** the X-RateLimit window's length: the longest reset seen */
  #budgetPeriod = EPOCH_MS;
  #epoch = { start: performance.now(), done: 0, starved: false };
  /** the least time between two starts (0: none), learned from a refusal */
  #gapMs = 0;
  #lastStart = 0;
  /**
   * The requests of the last second (or two rate-limit windows), oldest first: when each started,
   * its number, and when the service may have counted it as far as the window is concerned: its
   * start, moved up once answered to the answer less the shortest round trip seen (an answer later
   * than that may have left late, on an event loop busy writing pages, and been counted late).
   */
  readonly #sent: { start: number; id: number; anchor: number }[] = [];
  #rttMinMs = Infinity;
  #bestRate = 0;
  /** room added to the X-RateLimit window's margin by refusals it did not foresee */
  #jitterMs = 0;
  readonly #waiters = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  readonly figures: PaceFigures = { reached: 0, refused: 0, refusedInRow: 0 };

  constructor(ceiling: number) {
    this.#ceiling = Math.max(1, Math.floor(ceiling));
    this.#limit = Math.min(2, this.#ceiling);
    this.#threshold = this.#ceiling;
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return Math.max(1, Math.min(Math.floor(this.#limit), this.#headerLimit));
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** A request may start now (the caller then calls `start`). */
  canStart(now = Date.now()): boolean {
    if (now < this.#pausedUntil) return false;
    const free = this.#windowFreeAt(now);
    if (free > now) {
      this.#wakeAt(free);
      return false;
    }
    if (this.#gapMs > 0 && now < this.#lastStart + this.#gapMs) {
      this.#wakeAt(this.#lastStart + this.#gapMs);
      return false;
    }
    return this.#inFlight < this.limit;
  }

  /** A request starts; returns its number, to hand to `observe` with its answer. */
  start(now = Date.now()): number {
    this.#inFlight++;
    this.#lastStart = now;
    this.#sent.push({ start: now, id: this.#started + 1, anchor: now });
    const keep = 2 * Math.max(1000, this.#budgetPeriod) + 1000;
    while (this.#sent.length > 0 && this.#sent[0].start < now - keep) this.#sent.shift();
    this.figures.reached = Math.max(this.figures.reached, this.#inFlight);
    return ++this.#started;
  }

  /**
   * The room left for jitter between a request's start and when the service counts it: a little
   * at first, more after each refusal the headers did not foresee (the jitter was larger).
   */
  #margin(): number {
    return Math.min(1000, 25 + this.#rttMs / 10 + this.#jitterMs);
  }

  /** When the X-RateLimit window has room for one more request (`now` if it has; no headers: always). */
  #windowFreeAt(now: number): number {
    if (this.#windowLimit === Infinity) return now;
    const span = this.#budgetPeriod + this.#margin();
    const counted = this.#sent.map((r) => r.anchor).filter((t) => t > now - span);
    const others = this.#others && now < this.#others.until ? this.#others.n : 0;
    // Requests that must leave the window before one more fits: the oldest of ours first, else the others' reset.
    const over = counted.length + others - this.#windowLimit + 1;
    if (over <= 0) return now;
    if (over > counted.length) return this.#others!.until;
    counted.sort((a, b) => a - b);
    return counted[over - 1] + span + 1;
  }

  /** Resolves when something may have changed (a request ended, a wait passed), or after `ms` at the latest. */
  changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      const waiters = this.#waiters;
      function done() {
        clearTimeout(t);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  /** Wakes whoever waits in `changed` (the caller's own state changed: a page written, a request done). */
  poke(): void {
    this.#wake();
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
    this.#waiters.clear();
  }

  /** Wakes the waiters when a pause or a rate-limit window ends. */
  #wakeAt(at: number): void {
    clearTimeout(this.#timer);
    const ms = at - Date.now();
    if (ms <= 0) return;
    this.#timer = setTimeout(() => this.#wake(), ms + 1);
    this.#timer.unref?.();
  }

  /**
   * Every answer's load signal (the transport's Lane.onAnswer): Retry-After and the X-RateLimit-*
   * headers. `request`: the number `start` gave the request answered.
   */
  observe(signal: LoadSignal, request: number, now = Date.now()): void {
    const rl = signal.rateLimit;
    const sent = this.#sent.find((r) => r.id === request);
    if (sent) {
      this.#rttMinMs = Math.min(this.#rttMinMs, now - sent.start);
      sent.anchor = Math.max(sent.anchor, now - this.#rttMinMs);
    }
    if (rl) {
      if (rl.limit !== undefined && rl.limit > 0) this.#headerLimit = this.#windowLimit = Math.max(1, rl.limit);
      if (rl.resetMs !== undefined) this.#budgetPeriod = Math.max(this.#budgetPeriod, 100, rl.resetMs);
      if (rl.remaining !== undefined && sent && (request > this.#budgetFrom || !this.#others || now >= this.#others.until)) {
        this.#budgetFrom = Math.max(this.#budgetFrom, request);
        // What the service counted when this request reached it, less this sync's own requests
        // started within the window before it (and itself): the other clients'.
        const mine = sent.anchor;
        const from = mine - this.#budgetPeriod - this.#margin();
        const ours = this.#sent.filter((r) => r.anchor > from && r.anchor <= mine).length;
        this.#windowLimit =
          this.#headerLimit !== Infinity ? this.#headerLimit : Math.max(this.#windowLimit === Infinity ? 0 : this.#windowLimit, rl.remaining + ours);
        this.#others = { n: Math.max(0, this.#windowLimit - rl.remaining - ours), until: now + (rl.resetMs ?? EPOCH_MS) };
      }
    }
    if (signal.retryAfterMs !== undefined) {
      this.#pausedUntil = Math.max(this.#pausedUntil, now + signal.retryAfterMs);
      this.#wakeAt(this.#pausedUntil);
      this.#decrease();
    }
  }

  /** A request ended with an answer (`ms` its round trip). `queued`: other work was waiting for a slot. */
  succeeded(ms: number, queued: boolean): void {
    this.#end();
    this.#refusedRun = 0;
    this.#rttMs = this.#rttMs * 0.8 + ms * 0.2;
    if (this.#gapMs > 0) this.#gapMs *= 0.98;
    if (this.#limit < this.#threshold) this.#limit = Math.min(this.#ceiling, this.#limit + 1);
    else this.#limit = Math.min(this.#ceiling, this.#limit + 1 / this.#limit);
    this.#measure(queued);
    this.#wake();
  }

  /**
   * A request was refused (429): the pace halves and new requests wait out the Retry-After (or a
   * doubling wait). Throws RateLimitedError when the service refuses everything.
   */
  refused(retryAfterMs: number | undefined, inRow: number, now = Date.now()): void {
    this.#end();
    this.figures.refused++;
    this.#refusedRun = inRow;
    if (this.#windowLimit !== Infinity) this.#jitterMs = Math.min(1000, Math.max(this.#jitterMs * 2, this.#rttMs / 2));
    const recent = this.#sent.filter((r) => r.start >= now - 1000 && r.start < now).length;
    this.#gapMs = Math.max(this.#gapMs, 1000 / Math.max(1, recent - 1));
    this.figures.refusedInRow = Math.max(this.figures.refusedInRow, this.#refusedRun);
    const wait = retryAfterMs ?? DEFAULT_WAIT_MS * 2 ** Math.min(6, this.#refusedRun - 1);
    if (wait > LONGEST_WAIT_MS)
      throw new RateLimitedError(
        `the service is rate limiting and asks to wait ${Math.ceil(wait / 1000)} s: the sync stopped (what it archived is kept); run it again later`,
      );
    if (this.#refusedRun >= REFUSALS_TO_GIVE_UP)
      throw new RateLimitedError(
        `the service answered one request ${this.#refusedRun} times in a row with 429 (too many requests), waiting between them: the sync stopped ` +
          `(what it archived is kept); run it again later, or with --concurrency 1`,
      );
    this.#pausedUntil = Math.max(this.#pausedUntil, now + wait);
    this.#wakeAt(this.#pausedUntil);
    this.#decrease();
    this.#wake();
  }

  /** A request ended some other way (failed, cancelled). */
  ended(): void {
    this.#end();
    this.#wake();
  }

  #end(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** Halves the pace, once per round trip: the answers of one round are one signal. */
  #decrease(now = performance.now()): void {
    if (now - this.#lastDecrease < Math.max(this.#rttMs, 100)) return;
    this.#lastDecrease = now;
    this.#limit = Math.max(1, this.#limit / 2);
    this.#threshold = this.#limit;
  }

  /** Throughput per round: falling well below the best seen while work was queued means the service is saturated. */
  #measure(queued: boolean, now = performance.now()): void {
    const e = this.#epoch;
    e.done++;
    if (!queued) e.starved = true;
    const span = now - e.start;
    if (span < Math.max(EPOCH_MS, this.#rttMs * 4)) return;
    const rate = e.done / span;
    const fair = !e.starved && now - this.#lastDecrease > span;
    if (fair && this.#bestRate > 0 && rate < this.#bestRate * 0.5) this.#decrease(now);
    if (fair) this.#bestRate = Math.max(this.#bestRate * 0.9, rate);
    this.#epoch = { start: now, done: 0, starved: false };
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#wake();
  }
}
