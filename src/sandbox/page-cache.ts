// Serialised GET /calls pages, kept while they would read the same: until the calls change
// (any write, in this process or another) and no later than the next simulated change among
// the calls on the page. The call log is read far more often than it is written, and a page of
// ended calls never changes, so most reads skip the query, the views and JSON.stringify.
import type { CallRow } from './db.js';
import { callView } from './simulate.js';

export interface CachedPage {
  body: Buffer;
  /** the calls' version the page was built from (SandboxStore.callsVersion) */
  version: string;
  /** built at this time (epoch ms); a clock that steps back does not reuse it */
  builtAt: number;
  /** the first moment it could read differently */
  validUntil: number;
}

/** Bytes of pages kept at most; the oldest go first. */
const MAX_BYTES = 16 * 1024 * 1024;

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;

  get(key: string, version: string, now: number): Buffer | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.version === version && now >= page.builtAt && now < page.validUntil) return page.body;
    this.drop(key, page);
    return undefined;
  }

  set(key: string, page: CachedPage): void {
    if (page.validUntil <= page.builtAt || page.body.length > MAX_BYTES / 4) return;
    const old = this.pages.get(key);
    if (old) this.drop(key, old);
    for (const [k, p] of this.pages) {
      if (this.bytes + page.body.length <= MAX_BYTES) break;
      this.drop(k, p);
    }
    this.pages.set(key, page);
    this.bytes += page.body.length;
  }

  private drop(key: string, page: CachedPage): void {
    this.pages.delete(key);
    this.bytes -= page.body.length;
  }
}

/** Ended calls kept at most (about 650 bytes each): a hundred pages of a hundred. */
const MAX_ENDED = 10_000;

/**
 * A call's list JSON. Call rows are only ever inserted, and an ended call never reads
 * differently again, so its JSON is built once and reused by every page it appears on, even
 * after a write made those pages stale.
 */
export class ListedCallJson {
  private readonly ended = new Map<string, string>();

  of(c: CallRow, now: number): string {
    if (now < c.endedAt) return JSON.stringify(callView(c, now, false));
    let json = this.ended.get(c.id);
    if (json === undefined) {
      json = JSON.stringify(callView(c, now, false));
      if (this.ended.size >= MAX_ENDED) this.ended.delete(this.ended.keys().next().value!);
      this.ended.set(c.id, json);
    }
    return json;
  }
}
