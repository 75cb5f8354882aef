// Walking the call log newest first, past the first page. The service pages by time, not by
// offset: the next page is everything created on or before (createdAtLt is inclusive) the
// oldest record seen so far. Records sharing that timestamp come back again and are dropped
// by id, so nothing is shown twice and nothing between pages is skipped.
import type { VoiceAgentApi, RequestOptions } from './contract.js';
import type { Call, CallFilters } from './schemas.js';

export const DEFAULT_CALL_PAGE = 100;
/** The service's largest `limit` for GET /calls. */
export const MAX_CALL_PAGE = 1000;

/** Where the walk stands; pass it back to `fetchCallsBefore` for the next page ("load more"). */
export interface CallCursor {
  /** createdAt of the oldest record seen, as the service wrote it. */
  before: string | undefined;
  /** Ids already seen with exactly that timestamp; the next page returns them again. */
  idsAtBefore: readonly string[];
  /** No records older than the cursor remain. */
  done: boolean;
}

export interface CallsPage {
  /** Records not seen before, newest first. */
  calls: Call[];
  cursor: CallCursor;
}

export interface PageOptions extends RequestOptions {
  /** Records per request (default filters.limit or 100, at most 1000). */
  pageSize?: number;
  /** Page GET /calls/details (full records, with transcript and messages) instead of GET /calls. */
  details?: boolean;
}

/**
 * The page after `cursor` (the first page when it is undefined). If a full page brings nothing
 * new, more records share one timestamp than fit a page, so the inclusive cursor cannot move:
 * the request is repeated with a doubled limit, up to 1000. Past that (over 1000 calls created
 * in the same millisecond) the cursor steps 1 ms back and the rest of that instant is skipped,
 * which is the only way left to make progress.
 */
export async function fetchCallsBefore(
  api: VoiceAgentApi,
  filters: CallFilters,
  cursor: CallCursor | undefined,
  opts: PageOptions = {},
): Promise<CallsPage> {
  const pageSize = clampPage(opts.pageSize ?? filters.limit ?? DEFAULT_CALL_PAGE);
  let before = cursor ? cursor.before : filters.createdAtLt;
  let seen = new Set(cursor?.idsAtBefore ?? []);
  let limit = pageSize;
  for (;;) {
    const query = { ...filters, createdAtLt: before, limit };
    const page = await (opts.details ? api.callDetails(query, { signal: opts.signal }) : api.listCalls(query, { signal: opts.signal }));
    const fresh = page.filter((c) => !seen.has(c.id));
    const full = page.length >= limit;
    if (fresh.length === 0 && full && before !== undefined) {
      if (limit < MAX_CALL_PAGE) {
        limit = Math.min(MAX_CALL_PAGE, limit * 2);
      } else {
        before = new Date(Date.parse(before) - 1).toISOString();
        seen = new Set();
        limit = pageSize;
      }
      continue;
    }
    return { calls: fresh, cursor: nextCursor(page, before, seen, !full) };
  }
}

/** Every page of the log matching `filters`, newest first, each holding only records not yielded before. */
export async function* walkCallLog(api: VoiceAgentApi, filters: CallFilters, opts: PageOptions = {}): AsyncGenerator<Call[]> {
  let cursor: CallCursor | undefined;
  do {
    const page = await fetchCallsBefore(api, filters, cursor, opts);
    if (page.calls.length > 0) yield page.calls;
    cursor = page.cursor;
  } while (!cursor.done);
}

function nextCursor(page: Call[], before: string | undefined, seen: Set<string>, short: boolean): CallCursor {
  // Each timestamp parsed once (a page of 1000 parsed each up to four times: 4% of a full sync).
  const times = page.map((c) => Date.parse(c.createdAt));
  let oldest = -1;
  for (let i = 0; i < page.length; i++) {
    if (Number.isNaN(times[i])) continue;
    if (oldest < 0 || times[i] < times[oldest]) oldest = i;
  }
  // Without a readable timestamp there is no way to ask for older records.
  if (oldest < 0) return { before, idsAtBefore: [...seen], done: true };
  const at = times[oldest];
  const ids = page.filter((_, i) => times[i] === at).map((c) => c.id);
  // Still at the same instant as before: keep the ids seen there on earlier pages too.
  const carried = before !== undefined && Date.parse(before) === at ? [...seen] : [];
  return { before: page[oldest].createdAt, idsAtBefore: [...new Set([...carried, ...ids])], done: short };
}

function clampPage(n: number): number {
  return Math.min(MAX_CALL_PAGE, Math.max(1, Math.floor(n)));
}
