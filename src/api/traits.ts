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
