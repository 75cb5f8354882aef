// Walking the call log newest first, past the first page, on a service that may do any of what
// the spec leaves open: cap pages silently, honour its created-at bounds strictly or inclusively,
// name them otherwise, or ignore them. Nothing here trusts the service to be the sandbox:
//  - the next page is everything created up to the oldest record seen, overlapping it by 1 ms
//    where the bound may be strict (records sharing that instant come back and are dropped by id),
//    so nothing between pages is skipped either way;
//  - a page shorter than asked is not the end (a service may cap pages silently): the end is an
//    empty page, a page that adds no new id, or one that reaches below the range asked for;
//  - records outside the bounds sent mean the service ignores those names: the other names a
//    service may use are tried once (CALL_DATE_FILTER_NAMES) and the one honoured is learned; when
//    none is, the walk filters on its own side and says so, or stops with one clear message where
//    the service's newest page is all it can read. Every page is also filtered to the range asked.
// What is learned (the page cap, the filter's names and whether its bounds include the bound) goes
// to `api.learn`, so the next client of this profile starts from it (src/api/traits.ts).
import type { VoiceAgentApi, RequestOptions, FilesPage } from './contract.js';
import { ApiError } from './errors.js';
import type { Call, CallFilters, KbFile } from './schemas.js';
import { CALL_DATE_FILTER_NAMES, DEFAULT_CALL_DATE_FILTER, type CallDateFilter } from './traits.js';

export const DEFAULT_CALL_PAGE = 100;
/** The most records per request Switchboard asks for (the sandbox's largest `limit` for GET /calls). */
export const MAX_CALL_PAGE = 1000;
/** Requests one page may take (the limit growing through a crowded instant, the filter's names tried); past it the walk stops. */
const MAX_TRIES = 32;

/** Where the walk stands; pass it back to `fetchCallsBefore` for the next page ("load more"). */
export interface CallCursor {
  /** createdAt of the oldest record seen, as the service wrote it. */
  before: string | undefined;
  /** Ids already seen at that instant and the millisecond after it; the next page may return them again. */
  idsAtBefore: readonly string[];
  /** No records older than the cursor remain (or, with `unreachable`, none can be read). */
  done: boolean;
  /** The last page: records received and the limit asked (a short page followed by more shows a silent cap). */
  last?: { got: number; asked: number };
  /** The walk ended because the service cannot be paged further: what to tell the user. */
  unreachable?: string;
  /** The walk ended, but whether the service has older calls cannot be told (its page may be a cap): what to tell the user. */
  doubt?: string;
}

export interface CallsPage {
  /** Records not seen before and inside the range asked, newest first. */
  calls: Call[];
  cursor: CallCursor;
  /** Something the user should be told once (the service ignores the date filters, …). */
  notice?: string;
}

export interface PageOptions extends RequestOptions {
  /** Records per request (default filters.limit or 100, at most 1000 and the service's learned cap). */
  pageSize?: number;
  /** Page GET /calls/details (full records, with transcript and messages) instead of GET /calls. */
  details?: boolean;
}

/** The walk cannot go on, and why (the service ignores every date filter and its newest page is all it gives). */
export class PagingError extends Error {
  override name = 'PagingError';
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The page after `cursor` (the first page when it is undefined), inside filters.createdAtGt …
 * createdAtLt (both inclusive). A full page that brings nothing new means more records share one
 * instant than fit a page: the limit doubles up to the service's cap; past that the cursor steps
 * 1 ms back and the rest of that instant is skipped, the only way left to make progress.
 */
export async function fetchCallsBefore(api: VoiceAgentApi, filters: CallFilters, cursor: CallCursor | undefined, opts: PageOptions = {}): Promise<CallsPage> {
  const cap = () => api.traits.callPageCap ?? MAX_CALL_PAGE;
  const pageSize = clampPage(opts.pageSize ?? filters.limit ?? DEFAULT_CALL_PAGE);
  let dates: CallDateFilter | 'none' = api.traits.callDateFilter ?? DEFAULT_CALL_DATE_FILTER;
  const afterText = filters.createdAtGt || undefined;
  const after = afterText === undefined ? undefined : Date.parse(afterText);
  const upTo = filters.createdAtLt ? Date.parse(filters.createdAtLt) : undefined;
  let beforeText = earlier(filters.createdAtLt || undefined, cursor?.before);
  const seen = new Set(cursor?.idsAtBefore ?? []);
  let limit = Math.min(pageSize, cap());
  let probed = false;
  let notice: string | undefined;
  const base: CallFilters = { ...filters, createdAtGt: undefined, createdAtLt: undefined, limit: undefined };
  // The other filters, checked here too where given and the record says (a service may ignore them as well).
  const is = (asked: string | undefined, value: string | null | undefined) => !asked || value == null || value === asked;
  const matches =
    filters.id || filters.assistantId || filters.phoneNumberId
      ? (c: Call) => is(filters.id, c.id) && is(filters.assistantId, c.assistantId) && is(filters.phoneNumberId, c.phoneNumberId)
      : undefined;
  const ro = { signal: opts.signal, ...(opts.lane ? { lane: opts.lane } : {}) };
  const request = (q: CallFilters) => (opts.details ? api.callDetails(q, ro) : api.listCalls(q, ro));

  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const before = beforeText === undefined ? undefined : Date.parse(beforeText);
    // Strict or not known: each bound is widened by 1 ms, so a strict service returns what an inclusive one would.
    const sent = dates === 'none' ? {} : sentBounds(dates, afterText, after, beforeText, before);
    const dated = sent.after !== undefined || sent.before !== undefined;
    const widenedBefore = sent.before !== undefined && sent.before !== beforeText;
    // Without filters the newest page is all there is: as large a one as the service gives.
    const asked = dates === 'none' ? cap() : limit;
    let page: Call[];
    try {
      page = await request({ ...base, createdAtGt: sent.after, createdAtLt: sent.before, limit: asked, dateFilter: dates });
    } catch (err) {
      // A service that refuses the parameter outright (400 naming it): learn the names it takes from its newest page.
      if (!dated || probed || dates === 'none' || !refusesDateName(err, dates)) throw err;
      probed = true;
      const newest = await request({ ...base, limit: asked, dateFilter: 'none' });
      ({ dates, notice } = await learnDateFilter(api, base, newest, asked, dates, opts));
      continue;
    }
    const got = page.length;
    // The client may have asked for less (a cap learned meanwhile, a 400 naming one).
    const askedReally = Math.min(asked, cap());
    if (got === 0)
      return {
        calls: [],
        cursor: { before: beforeText, idsAtBefore: [...seen], done: true, last: { got, asked: askedReally } },
        ...(notice ? { notice } : {}),
      };

    // Each timestamp parsed once, not again at each use (a full sync parses every page).
    const times = new Array<number>(got);
    let newestAt = -Infinity;
    let oldestAt = Infinity;
    let oldest = -1;
    for (let i = 0; i < got; i++) {
      const t = Date.parse(page[i].createdAt);
      times[i] = t;
      if (Number.isNaN(t)) continue;
      if (t > newestAt) newestAt = t;
      if (t < oldestAt) {
        oldestAt = t;
        oldest = i;
      }
    }

    if (dated && dates !== 'none') {
      const sentAfter = sent.after === undefined ? -Infinity : Date.parse(sent.after);
      const sentBefore = sent.before === undefined ? Infinity : Date.parse(sent.before);
      if (oldestAt < sentAfter || newestAt > sentBefore) {
        // Records outside the bounds sent: the service ignores these names.
        if (!probed) {
          probed = true;
          ({ dates, notice } = await learnDateFilter(api, base, page, asked, dates, opts));
        } else dates = 'none';
        continue;
      }
      // A record exactly on a widened bound: this service's bounds include the bound.
      if (!dates.inclusive && (oldestAt === sentAfter || newestAt === sentBefore)) {
        dates = { ...dates, inclusive: true };
        api.learn({ callDateFilter: dates });
      }
    }
    if (dates === 'none' && (after !== undefined || before !== undefined)) notice ??= IGNORED_NOTICE;

    // The range asked for; records in the overlap above the cursor were seen (by id). Without
    // filters the service sends its newest page again: what is newer than the cursor was yielded.
    const top = dates === 'none' ? before : upTo;
    const fresh: Call[] = [];
    // Records new to the walk (whether or not they match): none means the walk has ended.
    let novel = 0;
    for (let i = 0; i < got; i++) {
      const t = times[i];
      if (after !== undefined && !(t >= after)) continue;
      if (top !== undefined && !(t <= top)) continue;
      if (seen.has(page[i].id)) continue;
      novel++;
      if (!matches || matches(page[i])) fresh.push(page[i]);
    }
    const full = got >= askedReally;
    const last = { got, asked: askedReally };
    const say = notice ? { notice } : {};

    if (dates === 'none') {
      // The newest page is all this service gives: it holds the whole range only if it is not full or reaches below it.
      const below = after !== undefined && oldestAt < after;
      const known = api.traits.callPageCap !== undefined;
      const end: Partial<CallCursor> =
        below || (!full && known) ? {} : full ? { unreachable: unreachableMessage(got) } : looksLikeCap(got) ? { doubt: doubtMessage(got) } : {};
      // Out of reach: the failure says it all (the notice that filters are ignored would be a second line).
      return {
        calls: fresh,
        cursor: { before: beforeText, idsAtBefore: [...seen], done: true, last, ...end },
        ...(end.doubt ? { notice: end.doubt } : end.unreachable ? {} : say),
      };
    }

    // A silent cap: the last page was shorter than asked, yet more records followed it.
    const prev = cursor?.last;
    if (prev && prev.got < prev.asked && novel > 0 && prev.got !== api.traits.callPageCap) {
      api.learn({ callPageCap: prev.got });
      limit = Math.min(limit, prev.got);
    }

    if (novel === 0 && full && beforeText !== undefined) {
      // The millisecond the widened bound let in filled the page, and the bound is now known to be
      // inclusive: asked again without it, the cursor's instant has room (stepping back would skip its rest).
      if (widenedBefore && dates.inclusive) continue;
      if (limit < cap()) limit = Math.min(cap(), limit * 2);
      // The ids seen stay: a bound widened by 1 ms brings that instant back once more.
      else beforeText = iso(Date.parse(beforeText) - 1);
      continue;
    }
    // Reached below the range (or onto its first instant with room to spare): everything in it was on this page.
    const reachedFloor = after !== undefined && (oldestAt < after || (oldestAt === after && !full));
    const done = novel === 0 || reachedFloor || oldest < 0;
    return { calls: fresh, cursor: nextCursor(page, times, oldest, beforeText, seen, done, last), ...say };
  }
  throw new PagingError(`the service kept answering with calls already seen (${MAX_TRIES} requests for one page); the walk stopped`);
}

/** Every page of the log matching `filters`, newest first, each holding only records not yielded before. */
export async function* walkCallLog(
  api: VoiceAgentApi,
  filters: CallFilters,
  opts: PageOptions & { onNotice?: (text: string) => void } = {},
): AsyncGenerator<Call[]> {
  let cursor: CallCursor | undefined;
  const said = new Set<string>();
  do {
    const page = await fetchCallsBefore(api, filters, cursor, opts);
    if (page.notice && !said.has(page.notice)) {
      said.add(page.notice);
      opts.onNotice?.(page.notice);
    }
    if (page.calls.length > 0) yield page.calls;
    cursor = page.cursor;
  } while (!cursor.done);
  if (cursor.unreachable) throw new PagingError(cursor.unreachable);
}

/**
 * The newest `want` calls of the log matching `filters`, and whether more match: the last page's
 * leftovers tell, else one more request for a single call (so a list cut at its limit can say so).
 */
export async function newestCalls(
  api: VoiceAgentApi,
  filters: CallFilters,
  want: number,
  opts: PageOptions & { onNotice?: (text: string) => void; onPage?: (calls: readonly Call[]) => void } = {},
): Promise<{ calls: Call[]; more: boolean }> {
  const calls: Call[] = [];
  let cursor: CallCursor | undefined;
  const said = new Set<string>();
  const notice = (text: string | undefined) => {
    if (text && !said.has(text)) {
      said.add(text);
      opts.onNotice?.(text);
    }
  };
  let more: boolean;
  do {
    const page = await fetchCallsBefore(api, filters, cursor, { ...opts, pageSize: want });
    notice(page.notice);
    const taken = page.calls.slice(0, want - calls.length);
    calls.push(...taken);
    opts.onPage?.(taken);
    more = page.calls.length > taken.length;
    cursor = page.cursor;
  } while (calls.length < want && !cursor.done);
  if (calls.length < want && cursor.unreachable) throw new PagingError(cursor.unreachable);
  if (!more && !cursor.done) {
    try {
      const peek = await fetchCallsBefore(api, filters, cursor, { ...opts, pageSize: 1 });
      notice(peek.notice);
      more = peek.calls.length > 0;
    } catch (err) {
      // Whether more exist is a courtesy: the calls asked for are all here.
      if (!(err instanceof PagingError)) throw err;
    }
  }
  return { calls, more };
}

export const IGNORED_NOTICE = 'the service ignores the created-at filters: Switchboard filters the calls by date itself';

/** Page sizes services cap at: a short page of 350 is the end of the log, one of 100 may be a cap. */
const USUAL_CAPS = new Set([10, 20, 25, 30, 50, 64, 100, 128, 200, 250, 256, 300, 500, 512, 1000]);
const looksLikeCap = (n: number) => USUAL_CAPS.has(n);

function doubtMessage(got: number): string {
  return `the service ignores the created-at filters and gave ${got} calls in one page: if it caps its pages at ${got}, older calls cannot be read`;
}

function unreachableMessage(got: number): string {
  return (
    `the service ignores every created-at filter Switchboard knows (${CALL_DATE_FILTER_NAMES.map((n) => n.join('/')).join(', ')}), so only its ` +
    `newest ${got} calls can be read: older calls are out of reach`
  );
}

function sentBounds(
  dates: CallDateFilter,
  afterText: string | undefined,
  after: number | undefined,
  beforeText: string | undefined,
  before: number | undefined,
): { after?: string; before?: string } {
  const out: { after?: string; before?: string } = {};
  if (afterText !== undefined && after !== undefined && !Number.isNaN(after)) out.after = dates.inclusive ? afterText : iso(after - 1);
  if (beforeText !== undefined && before !== undefined && !Number.isNaN(before)) out.before = dates.inclusive ? beforeText : iso(before + 1);
  return out;
}

/** The earlier of two timestamps as written (either may be absent). */
function earlier(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(b) < Date.parse(a) ? b : a;
}

/** A 400 naming one of the date parameters sent ("property createdAtGt should not exist"). */
function refusesDateName(err: unknown, dates: CallDateFilter): boolean {
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 422)) return false;
  const text = err.detail;
  return text.includes(dates.after) || text.includes(dates.before);
}

/**
 * Which names for the created-at bounds the service honours, found with the records of a page it
 * answered (`page`): each candidate pair is asked for a window that holds some of them and leaves
 * out others on both sides. Honoured: only records inside it come back (inclusive if the window
 * [t, t] brings the records at t; strict if only (t − 1 ms, t + 1 ms) does). The result is learned,
 * 'none' included (the walk then filters on its own side).
 */
async function learnDateFilter(
  api: VoiceAgentApi,
  base: CallFilters,
  page: readonly Call[],
  limit: number,
  tried: CallDateFilter | undefined,
  opts: RequestOptions = {},
): Promise<{ dates: CallDateFilter | 'none'; notice?: string }> {
  const distinct = [...new Set(page.map((c) => Date.parse(c.createdAt)).filter((t) => !Number.isNaN(t)))].sort((a, b) => b - a);
  const ask = async (dates: CallDateFilter, from: number, to: number): Promise<number[] | undefined> => {
    try {
      const calls = await api.listCalls({ ...base, createdAtGt: iso(from), createdAtLt: iso(to), limit, dateFilter: dates }, opts);
      return calls.map((c) => Date.parse(c.createdAt));
    } catch (err) {
      if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403 && err.status !== 429) return undefined;
      throw err;
    }
  };
  for (const [after, before] of CALL_DATE_FILTER_NAMES) {
    if (tried && tried.after === after && tried.before === before) continue;
    const pair = { after, before };
    let found: CallDateFilter | undefined;
    if (distinct.length >= 2) {
      // A second-newest instant: newer records above the window, and (when the page has them) older below.
      const t = distinct[1];
      const exact = await ask({ ...pair, inclusive: true }, t, t);
      if (exact === undefined) continue;
      if (exact.length > 0 && exact.every((x) => x === t)) found = { ...pair, inclusive: true };
      else if (exact.length === 0) {
        const around = await ask({ ...pair, inclusive: false }, t - 1, t + 1);
        if (around && around.length > 0 && around.every((x) => x >= t - 1 && x <= t + 1)) found = { ...pair, inclusive: false };
      }
    } else if (distinct.length === 1) {
      // One instant only: a window just after it must come back empty.
      const t = distinct[0] + 1;
      const none = await ask({ ...pair, inclusive: true }, t, t);
      if (none !== undefined && none.length === 0) found = { ...pair, inclusive: false };
    }
    if (found) {
      api.learn({ callDateFilter: found });
      return { dates: found };
    }
  }
  api.learn({ callDateFilter: 'none' });
  return { dates: 'none', notice: IGNORED_NOTICE };
}

function nextCursor(
  page: readonly Call[],
  times: readonly number[],
  oldest: number,
  before: string | undefined,
  seen: Set<string>,
  done: boolean,
  last: CallCursor['last'],
): CallCursor {
  // Without a readable timestamp there is no way to ask for older records.
  if (oldest < 0) return { before, idsAtBefore: [...seen], done: true, last };
  const at = times[oldest];
  // The next page asks up to `at` (+ 1 ms where bounds may be strict): what was seen there comes back.
  const ids: string[] = [];
  for (let i = 0; i < page.length; i++) if (times[i] === at || times[i] === at + 1) ids.push(page[i].id);
  // Still at the same instant as before: keep the ids seen there on earlier pages too.
  const carried = before !== undefined && Date.parse(before) <= at + 1 ? [...seen] : [];
  return { before: page[oldest].createdAt, idsAtBefore: [...new Set([...carried, ...ids])], done, last };
}

function clampPage(n: number): number {
  return Math.min(MAX_CALL_PAGE, Math.max(1, Math.floor(n)));
}

// ---- GET /files, paged by number

/**
 * Every file, page by page. The pages' own count is not trusted to end the walk (a `totalPages`
 * of 10^12, a service that ignores `page` and answers page 1 each time): it ends at an empty page,
 * a page that adds no new id, or the last page the service says it has.
 */
export async function allFiles(api: VoiceAgentApi, opts: RequestOptions & { limit?: number; onPage?: (p: FilesPage) => void } = {}): Promise<KbFile[]> {
  const files: KbFile[] = [];
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const p = await api.listFiles({ page, limit: opts.limit ?? 100 }, opts);
    opts.onPage?.(p);
    let added = 0;
    for (const f of p.files) {
      if (seen.has(f.id)) continue;
      seen.add(f.id);
      files.push(f);
      added++;
    }
    if (added === 0 || (!p.guessed && page >= p.pagination.totalPages)) return files;
  }
}
