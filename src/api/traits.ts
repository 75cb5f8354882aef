// What Switchboard has learned about how one service behaves where the spec is silent: how
// many records a page really brings, which created-at filter names it honours and whether its
// bounds include the bound, how it wraps its answers. Learned by the client as it pages (a 400
// naming a limit, a page cut short at a cap, records outside the asked range) and by
// `switchboard doctor`, kept per profile and base URL (src/config/traits.ts), and handed to the
// next client for that target so it starts where the last one left off.

/** The created-at bounds of GET /calls as the service honours them. */
export interface CallDateFilter {
  /** The query parameter that bounds creation from below ("createdAtGt", "createdAtGe", …). */
  after: string;
  /** The query parameter that bounds creation from above ("createdAtLt", "createdAtLe", …). */
  before: string;
  /** Whether a record created exactly at a bound is returned. */
  inclusive: boolean;
}

export interface ServiceTraits {
  /** The most records one page of GET /calls or /calls/details brings back. */
  callPageCap?: number;
  /** The date filter the service honours; 'none' when it ignored every name tried (the client filters). */
  callDateFilter?: CallDateFilter | 'none';
  /** The most records one page of GET /files brings back. */
  filesPageCap?: number;
  /** How each endpoint wrapped its answer when last seen ("GET /calls" → "{calls}", "bare", "{data}", …). */
  envelopes?: Record<string, string>;
  /** When any of this was last learned (ISO 8601). */
  learnedAt?: string;
}

/** Traits after `patch`: keys set to undefined are forgotten, envelopes are merged. */
export function mergeTraits(base: ServiceTraits, patch: Partial<ServiceTraits>): ServiceTraits {
  const out: ServiceTraits = { ...base };
  for (const [k, v] of Object.entries(patch) as [keyof ServiceTraits, unknown][]) {
    if (v === undefined) delete out[k];
    else if (k === 'envelopes') out.envelopes = { ...base.envelopes, ...(v as Record<string, string>) };
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * The page size a service's 400 names as its most, e.g. "limit must not be greater than 100",
 * "limit must be less than or equal to 100", "'limit' must be at most 100", "limit: max 100";
 * undefined when the message is not about `limit` or names no number. "less than 101" is 100.
 */
const LIMIT_WORDS =
  String.raw`less than or equal to|less than|greater than|not exceed|at most|` + String.raw`maximum(?: of| is)?|max(?:imum)?|<=|≤|<|up to|between\s+\d+\s+and`;
/** "limit", then a phrase that names a bound, then the number. */
const LIMIT_PHRASE = new RegExp(String.raw`\blimit\b[^0-9]*?(${LIMIT_WORDS})\s*:?\s*(\d+)`, 'i');

export function limitNamedIn(message: string): number | undefined {
  if (!/\blimit\b/i.test(message)) return undefined;
  const m = LIMIT_PHRASE.exec(message) ?? /(\d+)\s*(?:is the )?(?:max|maximum|most)\b/i.exec(message);
  if (!m) {
    // "The maximum limit is 100": the one number in a message about the limit.
    const numbers = message.match(/\d+/g) ?? [];
    const only = numbers.length === 1 ? Number(numbers[0]) : NaN;
    return Number.isSafeInteger(only) && only >= 1 ? only : undefined;
  }
  const n = Number(m[2] ?? m[1]);
  if (!Number.isSafeInteger(n) || n < 1) return undefined;
  const word = (m[2] === undefined ? '' : m[1]).toLowerCase();
  return word === 'less than' || word === '<' ? Math.max(1, n - 1) : n;
}

/** Query parameter pairs a call log's created-at bounds go by, tried in this order when the ones in use are ignored. */
export const CALL_DATE_FILTER_NAMES: readonly (readonly [after: string, before: string])[] = [
  ['createdAtGt', 'createdAtLt'],
  ['createdAtGe', 'createdAtLe'],
  ['createdAfter', 'createdBefore'],
  ['startDate', 'endDate'],
  ['from', 'to'],
  ['since', 'until'],
];

/** What the client assumes until it learns otherwise: the spec's names, bounds treated as strict (the walk overlaps them). */
export const DEFAULT_CALL_DATE_FILTER: CallDateFilter = { after: 'createdAtGt', before: 'createdAtLt', inclusive: false };
