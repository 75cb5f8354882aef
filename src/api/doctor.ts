// `switchboard doctor`'s probes: how the target service behaves where the spec is silent, found
// with read-only requests (GETs, and one HEAD for the clock; never a write), and what of it the
// client should keep for next time (ServiceTraits, src/api/traits.ts).
//
//   runDoctor({ baseUrl, apiKey })  → DoctorReport: one DoctorCheck per finding, in this order
//     key                 accepted, or 401/403 (failed, and nothing else is probed)
//     envelope <endpoint> bare, {assistants}, {data}, {message,data}, {items}, … (ok: the spec's own name)
//     calls / files page cap   a 400 naming a limit, a silent cap, none seen, or too few to tell
//     date filters        which created-at names GET /calls honours, strict or inclusive
//     records <endpoint>  each record read as the commands read it, one field at a time: the
//                         fields of another type (adapted: kept as received, numeric strings read
//                         as numbers), records skipped as unreadable (warning), none readable (failed)
//     transcript, summary, duration, cost   which fields of the call records carry them
//     clock               the Date header against this machine's clock; calls dated in the future
//   Each is ok, adapted (differs from the spec; the client copes), warning or failed.
//   report.learned  the ServiceTraits patch to remember (mergeTraits: undefined forgets)
//
// Like the rest of src/api, the only code that knows paths and envelopes; text in findings is
// the service's as received: escape it where it meets a terminal.
import { ApiError, NetworkError, TimeoutError, failure } from './errors.js';
import { describeBody, preview, unwrapList, unwrapRecord } from './envelope.js';
import { createTransport, type Transport, type TransportOptions } from './http.js';
import { DEFAULT_CALL_PAGE, MAX_CALL_PAGE } from './pager.js';
import { CALL_DATE_FILTER_NAMES, limitNamedIn, type CallDateFilter, type ServiceTraits } from './traits.js';
import { Adaptations, collect, mismatchWords, numberOf, unreadable, type Mismatch } from './adapt.js';
import { CallSchema, KbFileSchema, PhoneNumberSchema } from './schemas.js';

export type CheckStatus = 'ok' | 'adapted' | 'warning' | 'failed';

export interface DoctorCheck {
  /** What was checked ("key", "envelope GET /calls", "calls page cap", "date filters", …). */
  check: string;
  status: CheckStatus;
  /** One line in the user's words; may hold the service's text. */
  finding: string;
  /** The same facts as data (for -o json). */
  facts: Record<string, unknown>;
}

export interface DoctorReport {
  baseUrl: string;
  checks: DoctorCheck[];
  /** What to remember for this target; undefined when the service could not be probed. */
  learned?: Partial<ServiceTraits>;
  /** What stopped the probe or failed in it: a refused key, an unreachable service, or a failed check. */
  failed?: 'auth' | 'unreachable' | 'check';
}

export interface DoctorOptions extends Pick<TransportOptions, 'baseUrl' | 'apiKey' | 'debug' | 'timeouts' | 'retries' | 'retryBaseMs'> {
  /** This machine's clock (tests move it). */
  now?: () => number;
}

/** The endpoints whose envelopes are learned, as ServiceTraits.envelopes names them. */
const DOCTOR_ENDPOINTS = {
  assistants: 'GET /assistants',
  assistant: 'GET /assistants/{id}',
  numbers: 'GET /phone-numbers',
  calls: 'GET /calls',
  details: 'GET /calls/details',
  files: 'GET /files',
  file: 'GET /files/{id}',
} as const;

/** The most files one page of the client asks for (files list --limit). */
const MAX_FILE_PAGE = 100;
/** A clock further off than this is worth a warning: relative filters (--after 1h) and "just now" drift by it. */
const SKEW_WARN_MS = 30_000;
/** Calls read in full for their fields. */
const DETAIL_SAMPLE = 3;

/** An answer; `text` and `contentType` where the transport gives them (a 2xx that is not JSON). */
type Got = { ok: true; status: number; body: unknown; text?: string; contentType?: string } | { ok: false; error: unknown };

interface CallStamp {
  id: string;
  createdAt: string;
  t: number;
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const http = createTransport(opts);
  try {
    return await new Probe(http, opts).run();
  } finally {
    await http.close();
  }
}

class Probe {
  readonly checks: DoctorCheck[] = [];
  readonly envelopes: Record<string, string> = {};
  readonly learned: Partial<ServiceTraits> = {};
  readonly now: () => number;

  constructor(
    readonly http: Transport,
    readonly opts: DoctorOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  add(check: string, status: CheckStatus, finding: string, facts: Record<string, unknown> = {}): void {
    this.checks.push({ check, status, finding, facts });
  }

  async get(path: string): Promise<Got> {
    try {
      const res: { status: number; body: unknown; text?: string; contentType?: string } = await this.http.send({ method: 'GET', path });
      return { ok: true, status: res.status, body: res.body, text: res.text, contentType: res.contentType };
    } catch (error) {
      return { ok: false, error };
    }
  }

  report(failed?: DoctorReport['failed']): DoctorReport {
    const checks = this.checks
      .map((c, i) => ({ c, i, rank: rankOf(c.check) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map(({ c }) => c);
    const anyFailed = failed ?? (this.checks.some((c) => c.status === 'failed') ? 'check' : undefined);
    return {
      baseUrl: this.http.baseUrl,
      checks,
      ...(failed ? {} : { learned: { ...this.learned, envelopes: this.envelopes } }),
      ...(anyFailed ? { failed: anyFailed } : {}),
    };
  }

  async run(): Promise<DoctorReport> {
    const clock = this.readClock();
    const assistants = await this.get('/assistants');
    const stop = this.checkKey(assistants);
    if (stop) {
      await clock.catch(() => undefined);
      return this.report(stop);
    }
    const assistantList = this.listEnvelope(DOCTOR_ENDPOINTS.assistants, assistants, 'assistants');
    await this.recordEnvelope(DOCTOR_ENDPOINTS.assistant, 'assistant', firstId(assistantList), (id) => `/assistants/${encodeURIComponent(id)}`);
    this.listEnvelope(DOCTOR_ENDPOINTS.numbers, await this.get('/phone-numbers'), 'phoneNumbers', PhoneNumberSchema);

    const calls = await this.callsPage();
    const filter = calls ? await this.dateFilters(calls.stamps, calls.cap ?? calls.asked) : undefined;
    if (calls) await this.callsCap(calls, filter);
    await this.callFields(calls?.records ?? [], calls?.cap);

    const files = await this.filesPage();
    await this.recordEnvelope(DOCTOR_ENDPOINTS.file, 'file', firstId(files), (id) => `/files/${encodeURIComponent(id)}`);

    this.checkClock(await clock, calls?.stamps ?? []);
    return this.report();
  }

  /** The first answer tells whether the key works; a refused key or no answer ends the probe. */
  checkKey(got: Got): DoctorReport['failed'] | undefined {
    if (got.ok) {
      this.add('key', 'ok', `accepted (GET /assistants answered ${got.status})`, { accepted: true, httpStatus: got.status });
      return undefined;
    }
    const err = got.error;
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      this.add(
        'key',
        'failed',
        `refused: GET /assistants answered ${err.status}${err.detail ? `: ${err.detail}` : ''}; run \`switchboard login\` or set SWITCHBOARD_API_KEY`,
        {
          accepted: false,
          httpStatus: err.status,
          said: err.detail,
        },
      );
      return 'auth';
    }
    if (err instanceof NetworkError || err instanceof TimeoutError) {
      this.add('key', 'failed', `not checked: the service did not answer: ${failure(err).message}`, { accepted: null, unreachable: true });
      return 'unreachable';
    }
    if (err instanceof ApiError && err.status >= 200 && err.status < 300) {
      this.add('key', 'ok', `accepted (GET /assistants answered ${err.status})`, { accepted: true, httpStatus: err.status });
    } else {
      const status = err instanceof ApiError ? err.status : undefined;
      this.add('key', 'warning', `not confirmed: GET /assistants failed: ${failure(err).message}`, { accepted: null, httpStatus: status });
    }
    return undefined;
  }

  listEnvelope(endpoint: string, got: Got, plural: string, schema?: RecordSchema): Record<string, unknown>[] | undefined {
    if (!got.ok) {
      this.add(`envelope ${endpoint}`, 'failed', `${failure(got.error).message}`, { endpoint, envelope: null });
      return undefined;
    }
    const u = unwrapList(got.body, plural);
    if (!u) {
      this.add(`envelope ${endpoint}`, 'failed', `no list found in ${describe(got)}`, { endpoint, envelope: null });
      return undefined;
    }
    this.envelope(endpoint, u.envelope, plural);
    if (schema) this.readRecords(endpoint, u.list, plural, schema);
    return u.list.filter(isRecord);
  }

  /**
   * The records of a list read as the client reads them: what differs from the schemas is adapted
   * to; records that cannot be read are skipped (a warning); a list none of whose records can be
   * read leaves the commands nothing to work on (failed), as do calls without a readable createdAt.
   */
  readRecords(endpoint: string, list: unknown[], plural: string, schema: RecordSchema): void {
    const check = `records ${endpoint}`;
    const met = new Adaptations();
    let read = 0;
    let dated = 0;
    collect(met, () => {
      list.forEach((item, i) => {
        const why = unreadable(item);
        const r = why ? undefined : schema.safeParse(item);
        if (r?.success) {
          read++;
          const createdAt = (item as Record<string, unknown>).createdAt;
          if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt))) dated++;
        } else met.skipped.push({ at: `${plural}[${i}]`, why: why ?? 'unreadable' });
      });
    });
    const mismatches = met.list();
    const numeric = mismatches.filter((m) => m.numeric);
    const numericWords = (m: Mismatch, i: number) => `${m.field} (${i === 0 ? `${m.example}, ` : ''}${m.count} of ${list.length})`;
    const adapted = [
      ...(numeric.length ? [`numeric strings read as numbers: ${numeric.map(numericWords).join(', ')}`] : []),
      ...mismatches.filter((m) => !m.numeric).map((m) => `${mismatchWords(m)} (${m.count} of ${list.length})`),
    ];
    // The platform's own shape of a number is read as well as the spec's: said, since the spec shows the other.
    const platform =
      plural === 'phoneNumbers' ? list.filter((n) => isRecord(n) && n.did === undefined && (n.number !== undefined || typeof n.status === 'string')).length : 0;
    if (platform) adapted.unshift(`the platform's shape (number, name, status "active"/"activating"/"blocked") in ${platform} of ${list.length}`);
    const skipped = met.skipped.slice(0, 3).map((s) => `${s.at}: ${s.why}`);
    const more = met.skipped.length > 3 ? ` and ${met.skipped.length - 3} more` : '';
    const facts = {
      endpoint,
      records: list.length,
      read,
      skipped: met.skipped,
      adapted: mismatches.map(({ field, expected, received, numeric, example, count }) => ({ field, expected, received, numeric, example, count })),
    };
    if (list.length > 0 && read === 0) {
      this.add(
        check,
        'failed',
        `none of the ${list.length} records can be read (${skipped.join('; ')}${more}): the commands would have nothing to show`,
        facts,
      );
      return;
    }
    if (plural === 'calls' && read > 0 && dated === 0) {
      this.add(
        check,
        'failed',
        `no call carries a readable createdAt: the call log cannot be paged or filtered by date${adapted.length ? `; ${adapted.join('; ')}` : ''}`,
        facts,
      );
      return;
    }
    if (met.skipped.length) {
      this.add(
        check,
        'warning',
        `${met.skipped.length} of ${list.length} skipped, unreadable (${skipped.join('; ')}${more})${adapted.length ? `; adapted: ${adapted.join('; ')}` : ''}`,
        facts,
      );
      return;
    }
    if (adapted.length) this.add(check, 'adapted', adapted.join('; '), facts);
    else this.add(check, 'ok', `${read} read, every field as expected`, facts);
  }

  async recordEnvelope(endpoint: string, name: string, id: string | undefined, path: (id: string) => string): Promise<void> {
    if (id === undefined) {
      this.add(`envelope ${endpoint}`, 'warning', `not checked (no ${name} to read)`, { endpoint, envelope: null });
      return;
    }
    const got = await this.get(path(id));
    if (!got.ok) {
      this.add(`envelope ${endpoint}`, 'failed', `${failure(got.error).message}`, { endpoint, envelope: null });
      return;
    }
    const u = unwrapRecord(got.body, name);
    if (!u) {
      this.add(`envelope ${endpoint}`, 'failed', `no ${name} found in ${describe(got)}`, { endpoint, envelope: null });
      return;
    }
    this.envelope(endpoint, u.envelope, name);
  }

  /** Under the resource's own name is what the spec shows and the client always read: ok; any other envelope is adapted to. */
  envelope(endpoint: string, envelope: string, name: string): void {
    this.envelopes[endpoint] = envelope;
    const named = envelope === `{${name}}` || envelope === `{message,${name}}`;
    this.add(`envelope ${endpoint}`, named ? 'ok' : 'adapted', envelope, { endpoint, envelope });
  }

  /** GET /calls at the largest page the client asks for; a 400 naming a smaller limit is asked again at that limit. */
  async callsPage(): Promise<CallsPage | undefined> {
    let asked = MAX_CALL_PAGE;
    let got = await this.get(`/calls?limit=${asked}`);
    let refused: CallsPage['refused'];
    if (!got.ok && isRefusal(got.error)) {
      const said = got.error.detail;
      const named = namedLimit(said, asked);
      refused = { asked, said, named };
      asked = named ?? DEFAULT_CALL_PAGE;
      got = await this.get(`/calls?limit=${asked}`);
      if (!got.ok) {
        this.add('calls page cap', 'failed', `GET /calls refused limit=${refused.asked} (${said}) and limit=${asked} (${failure(got.error).message})`, {
          endpoint: 'GET /calls',
          cap: null,
          how: 'refused',
        });
      }
    }
    const records = this.listEnvelope(DOCTOR_ENDPOINTS.calls, got, 'calls', CallSchema);
    if (!records) {
      if (!refused) this.add('calls page cap', 'warning', 'not checked: GET /calls failed', { endpoint: 'GET /calls', cap: null, how: 'unknown' });
      this.add('date filters', 'warning', 'not checked: GET /calls failed', { after: null, before: null });
      return undefined;
    }
    if (refused && !got.ok) return undefined;
    return { asked, records, stamps: stampsOf(records), refused, cap: refused ? asked : undefined };
  }

  async callsCap(page: CallsPage, filter: CallDateFilter | 'none' | undefined): Promise<void> {
    const facts = { endpoint: 'GET /calls', asked: page.asked, got: page.records.length };
    if (page.refused) {
      const { asked, said } = page.refused;
      const how = page.refused.named
        ? `refused above ${page.cap} (limit=${asked}: ${said})`
        : `refused limit=${asked} without naming its largest (${said}); limit=${page.cap} works`;
      this.add('calls page cap', 'adapted', `${how}: pages of ${page.cap}`, { ...facts, cap: page.cap, how: 'refused', said });
      this.learned.callPageCap = page.cap;
      return;
    }
    const n = page.records.length;
    if (n >= page.asked) {
      this.add('calls page cap', 'ok', `none seen: limit=${page.asked} brought ${n}`, { ...facts, cap: null, how: 'none' });
      this.learned.callPageCap = undefined;
      return;
    }
    if (n === 0) {
      this.add('calls page cap', 'ok', 'not enough calls to tell (the log is empty)', { ...facts, cap: null, how: 'unknown' });
      return;
    }
    // Fewer than asked: the end of the log, or a cap. Calls past the page tell them apart: older
    // ones through the date filter, or else one assistant's calls (narrowed, if not by time).
    const seen = new Set(page.records.map((r) => r.id));
    const looks: { path: string; assistantId?: string }[] = [];
    if (filter && filter !== 'none') {
      const oldest = page.stamps[page.stamps.length - 1];
      if (oldest) looks.push({ path: `/calls?${encodeURIComponent(filter.before)}=${encodeURIComponent(oldest.createdAt)}&limit=${page.asked}` });
    } else {
      const ids = [...new Set(page.records.map((r) => r.assistantId).filter((a): a is string => typeof a === 'string' && a !== ''))];
      for (const a of ids.slice(0, 3)) looks.push({ path: `/calls?assistantId=${encodeURIComponent(a)}&limit=${page.asked}`, assistantId: a });
    }
    let told = false;
    for (const look of looks) {
      const got = await this.get(look.path);
      const list = got.ok ? unwrapList(got.body, 'calls')?.list.filter(isRecord) : undefined;
      // A filter the service ignores tells nothing.
      if (!list || (look.assistantId !== undefined && list.some((r) => r.assistantId !== look.assistantId))) continue;
      told = true;
      if (list.some((r) => typeof r.id === 'string' && !seen.has(r.id))) {
        const more = look.assistantId === undefined ? 'older calls exist' : "an assistant's calls include some past the page";
        this.add('calls page cap', 'adapted', `silently capped at ${n}: limit=${page.asked} brought ${n}, and ${more}`, { ...facts, cap: n, how: 'silent' });
        this.learned.callPageCap = n;
        return;
      }
    }
    if (!told) {
      this.add('calls page cap', 'warning', `cannot tell: limit=${page.asked} brought ${n}, and no filter worked to look past them`, {
        ...facts,
        cap: null,
        how: 'unknown',
      });
      return;
    }
    this.add('calls page cap', 'ok', `not enough calls to tell: all ${n} came in one page of ${page.asked}`, { ...facts, cap: null, how: 'unknown' });
  }

  /**
   * Which created-at names are honoured, asked with a bound equal to a known call's createdAt:
   * a record outside the bound means the name is ignored; that call coming back means inclusive.
   */
  async dateFilters(stamps: CallStamp[], pageCap: number): Promise<CallDateFilter | 'none' | undefined> {
    const times = [...new Set(stamps.map((s) => s.t))];
    if (times.length < 3) {
      this.add('date filters', 'warning', `not enough calls to tell (it takes calls at 3 different times; ${stamps.length} read)`, {
        after: null,
        before: null,
      });
      return undefined;
    }
    // A call with newer and older ones beside it on the page, near its top so the answers stay small.
    const pivot = stamps.find((s) => s.t === times[Math.min(Math.floor((times.length - 1) / 2), 10)])!;
    const limit = Math.min(pageCap, stamps.filter((s) => s.t >= pivot.t).length + 10);
    const tried: BoundResult[] = [];
    const pairs: { after: BoundResult; before: BoundResult }[] = [];
    // The client's own list of names; the first two pairs (Vapi's strict and inclusive) always, the rest until one works.
    for (const [i, [afterName, beforeName]] of CALL_DATE_FILTER_NAMES.entries()) {
      if (i >= 2 && pairs.some(bothHonoured)) break;
      const after = await this.tryBound(afterName, 'after', pivot, limit);
      const before = await this.tryBound(beforeName, 'before', pivot, limit);
      tried.push(after, before);
      pairs.push({ after, before });
    }
    const both = pairs.filter(bothHonoured);
    // An inclusive pair needs no overlap at a page boundary; otherwise the first that works.
    const pick = both.find((p) => p.after.inclusive && p.before.inclusive) ?? both[0];
    const after = pick?.after ?? tried.find((b) => b.side === 'after' && b.result === 'honoured');
    const before = pick?.before ?? tried.find((b) => b.side === 'before' && b.result === 'honoured');
    const triedText = describeBounds(tried);
    const facts = {
      pivot: pivot.createdAt,
      tried: tried.map(({ name, side, result, inclusive, said }) => ({
        name,
        side,
        result,
        ...(inclusive !== undefined ? { inclusive } : {}),
        ...(said ? { said } : {}),
      })),
    };
    if ((!after || !before) && tried.some((b) => b.result === 'failed')) {
      // A failure is not an answer: nothing is kept from it.
      this.add('date filters', 'warning', `cannot tell (${triedText})`, { after: null, before: null, inclusive: null, ...facts });
      return undefined;
    }
    if (!after || !before) {
      this.add('date filters', 'warning', `none honoured on both sides (${triedText}): the client filters on its side`, {
        after: null,
        before: null,
        inclusive: null,
        ...facts,
      });
      this.learned.callDateFilter = 'none';
      return 'none';
    }
    const chosen: CallDateFilter = { after: after.name, before: before.name, inclusive: after.inclusive === true && before.inclusive === true };
    const usual = chosen.after === 'createdAtGt' && chosen.before === 'createdAtLt' && chosen.inclusive;
    const others = describeBounds(tried.filter((b) => b !== after && b !== before));
    this.add(
      'date filters',
      usual ? 'ok' : 'adapted',
      `${chosen.after}/${chosen.before}, ${chosen.inclusive ? 'inclusive' : 'strict'}${others ? ` (${others})` : ''}`,
      { ...chosen, ...facts },
    );
    this.learned.callDateFilter = chosen;
    return chosen;
  }

  async tryBound(name: string, side: 'after' | 'before', pivot: CallStamp, limit: number): Promise<BoundResult> {
    const got = await this.get(`/calls?${encodeURIComponent(name)}=${encodeURIComponent(pivot.createdAt)}&limit=${limit}`);
    if (!got.ok) {
      const err = got.error;
      if (isRefusal(err)) return { name, side, result: 'refused', said: err.detail };
      return { name, side, result: 'failed', said: failure(err).message };
    }
    const list = unwrapList(got.body, 'calls');
    if (!list) return { name, side, result: 'failed', said: `no list found in ${describe(got)}` };
    const times = stampsOf(list.list.filter(isRecord)).map((s) => s.t);
    if (times.some((t) => (side === 'after' ? t < pivot.t : t > pivot.t))) return { name, side, result: 'ignored' };
    if (times.length === 0) return { name, side, result: 'empty' };
    return { name, side, result: 'honoured', inclusive: times.includes(pivot.t) };
  }

  /** Which fields carry a call's transcript, summary, duration and cost, over the page and a few full records. */
  async callFields(listed: Record<string, unknown>[], refusedAbove: number | undefined): Promise<void> {
    const ended = listed.filter((c) => c.status === 'ended' || typeof c.endedAt === 'string');
    const sample = (ended.length > 0 ? ended : listed)
      .slice(0, DETAIL_SAMPLE)
      .map((c) => c.id)
      .filter((id): id is string => typeof id === 'string');
    const byId = new Map<string, Record<string, unknown>>();
    for (const r of listed) if (typeof r.id === 'string') byId.set(r.id, r);
    let detailsChecked = false;
    for (const id of sample) {
      let got = await this.get(`/calls/details?id=${encodeURIComponent(id)}`);
      // A service that refuses large pages may refuse its own default page too: ask within its cap.
      if (!got.ok && refusedAbove !== undefined && isRefusal(got.error))
        got = await this.get(`/calls/details?id=${encodeURIComponent(id)}&limit=${refusedAbove}`);
      if (!detailsChecked) {
        detailsChecked = true;
        const records = this.listEnvelope(DOCTOR_ENDPOINTS.details, got, 'calls', CallSchema);
        if (!records) break;
      }
      const found = got.ok
        ? unwrapList(got.body, 'calls')
            ?.list.filter(isRecord)
            .find((r) => r.id === id)
        : undefined;
      if (found) byId.set(id, found);
    }
    if (!detailsChecked)
      this.add(`envelope ${DOCTOR_ENDPOINTS.details}`, 'warning', 'not checked (no call to read)', { endpoint: DOCTOR_ENDPOINTS.details, envelope: null });
    const records = [...byId.values()];
    for (const field of CALL_FIELDS) {
      const forms = field.forms.filter((f) => records.some(f.test)).map((f) => f.name);
      const facts = { field: field.name, forms, records: records.length };
      if (records.length === 0) this.add(field.name, 'warning', 'not checked (no calls to read)', facts);
      else if (forms.length === 0)
        this.add(
          field.name,
          'warning',
          `not seen in the ${records.length} call${records.length === 1 ? '' : 's'} read (${field.forms.map((f) => f.name).join(', ')})`,
          facts,
        );
      else this.add(field.name, 'ok', `${forms.join(', ')} (${records.length} call${records.length === 1 ? '' : 's'} read)`, facts);
    }
  }

  /** GET /files at the largest page the client asks for: a refusal naming a limit, the pagination's own limit, or a short page with more to come. */
  async filesPage(): Promise<Record<string, unknown>[] | undefined> {
    let asked = MAX_FILE_PAGE;
    let got = await this.get(`/files?limit=${asked}`);
    let refused: { asked: number; said: string; named?: number } | undefined;
    if (!got.ok && isRefusal(got.error)) {
      const said = got.error.detail;
      refused = { asked, said, named: namedLimit(said, asked) };
      asked = refused.named ?? 10;
      got = await this.get(`/files?limit=${asked}`);
    }
    const files = this.listEnvelope(DOCTOR_ENDPOINTS.files, got, 'files', KbFileSchema);
    const facts = { endpoint: 'GET /files', asked, got: files?.length ?? null };
    if (!files || !got.ok) {
      this.add(
        'files page cap',
        refused ? 'failed' : 'warning',
        refused ? `GET /files refused limit=${refused.asked} (${refused.said}) and limit=${asked}` : 'not checked: GET /files failed',
        { ...facts, cap: null, how: 'unknown' },
      );
      return files;
    }
    if (refused) {
      const how = refused.named
        ? `refused above ${asked} (limit=${refused.asked}: ${refused.said})`
        : `refused limit=${refused.asked} without naming its largest (${refused.said}); limit=${asked} works`;
      this.add('files page cap', 'adapted', `${how}: pages of ${asked}`, { ...facts, cap: asked, how: 'refused', said: refused.said });
      this.learned.filesPageCap = asked;
      return files;
    }
    const body = got.body;
    const pagination = isRecord(body) && isRecord(body.pagination) ? body.pagination : undefined;
    const used = typeof pagination?.limit === 'number' ? pagination.limit : undefined;
    const total = typeof pagination?.total === 'number' ? pagination.total : undefined;
    const n = files.length;
    if (used !== undefined && used < asked) {
      this.add('files page cap', 'adapted', `silently capped at ${used}: limit=${asked} answered with a page of limit ${used}`, {
        ...facts,
        cap: used,
        how: 'silent',
      });
      this.learned.filesPageCap = used;
    } else if (n < asked && total !== undefined && total > n) {
      this.add('files page cap', 'adapted', `silently capped at ${n}: limit=${asked} brought ${n} of ${total}`, { ...facts, cap: n, how: 'silent' });
      this.learned.filesPageCap = n;
    } else if (n >= asked) {
      this.add('files page cap', 'ok', `none seen: limit=${asked} brought ${n}`, { ...facts, cap: null, how: 'none' });
      this.learned.filesPageCap = undefined;
    } else {
      this.add('files page cap', 'ok', `not enough files to tell: all ${n} came in one page of ${asked}`, { ...facts, cap: null, how: 'unknown' });
    }
    return files;
  }

  /** One HEAD for the service's Date header, timed so the round trip bounds the error. */
  async readClock(): Promise<{ date?: string; localMs: number; roundTripMs: number } | { error: string }> {
    const started = this.now();
    const t0 = performance.now();
    try {
      const res = await fetch(`${this.http.baseUrl}/assistants`, {
        method: 'HEAD',
        headers: { 'x-api-key': this.opts.apiKey },
        signal: AbortSignal.timeout(15_000),
      });
      const roundTripMs = performance.now() - t0;
      this.opts.debug?.(`HEAD /assistants → ${res.status} (${Math.round(roundTripMs)} ms), Date: ${res.headers.get('date') ?? 'none'}`);
      return { date: res.headers.get('date') ?? undefined, localMs: started + roundTripMs / 2, roundTripMs };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  checkClock(clock: Awaited<ReturnType<Probe['readClock']>>, stamps: CallStamp[]): void {
    const notes: string[] = [];
    let status: CheckStatus = 'ok';
    const facts: Record<string, unknown> = {};
    if ('error' in clock) {
      status = 'warning';
      notes.push(`no Date header read (${clock.error})`);
    } else if (clock.date === undefined || Number.isNaN(Date.parse(clock.date))) {
      status = 'warning';
      notes.push('the service sent no readable Date header');
    } else {
      // The Date header counts whole seconds: up to 1 s plus half the round trip either way is noise.
      const skew = Date.parse(clock.date) - clock.localMs;
      const noise = 1000 + clock.roundTripMs / 2;
      Object.assign(facts, { serviceDate: clock.date, skewSeconds: Math.round(skew / 1000) });
      if (Math.abs(skew) > SKEW_WARN_MS) {
        status = 'warning';
        notes.push(`the service's clock is ${span(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'} this machine's`);
      } else
        notes.push(
          Math.abs(skew) <= noise
            ? 'in step with this machine (Date header)'
            : `${span(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'} this machine (Date header)`,
        );
    }
    const newest = stamps[0];
    if (newest) {
      const ahead = newest.t - this.now();
      Object.assign(facts, { newestCreatedAt: newest.createdAt, newestAheadSeconds: Math.max(0, Math.round(ahead / 1000)) });
      if (ahead > SKEW_WARN_MS) {
        status = 'warning';
        notes.push(`the newest call is dated ${span(ahead)} in the future (${newest.createdAt})`);
      }
    }
    this.add('clock', status, notes.join('; '), facts);
  }
}

/** Where a check is printed: the key, the envelopes by endpoint, the page caps, the filters, the call fields, the clock. */
function rankOf(check: string): number {
  const endpoints: string[] = Object.values(DOCTOR_ENDPOINTS);
  if (check.startsWith('envelope ')) return 10 + endpoints.indexOf(check.slice('envelope '.length));
  if (check.startsWith('records ')) return 10.5 + endpoints.indexOf(check.slice('records '.length));
  const order = ['key', 'calls page cap', 'files page cap', 'date filters', ...CALL_FIELDS.map((f) => f.name), 'clock'];
  return order.indexOf(check) < 1 ? 0 : 100 + order.indexOf(check);
}

/** A record schema of the client's (parsed as it parses them). */
type RecordSchema = { safeParse(v: unknown): { success: boolean } };

interface CallsPage {
  /** The limit that was answered. */
  asked: number;
  records: Record<string, unknown>[];
  /** Newest first. */
  stamps: CallStamp[];
  /** A larger limit was refused (and what the service said). */
  refused?: { asked: number; said: string; named?: number };
  cap?: number;
}

interface BoundResult {
  name: string;
  side: 'after' | 'before';
  result: 'honoured' | 'ignored' | 'refused' | 'empty' | 'failed';
  inclusive?: boolean;
  said?: string;
}

const bothHonoured = (p: { after: BoundResult; before: BoundResult }) => p.after.result === 'honoured' && p.before.result === 'honoured';

/** Names grouped by what they did: "createdAtGt, createdAtLt strict; createdAfter and 3 more ignored". */
function describeBounds(bounds: BoundResult[]): string {
  const groups = new Map<string, string[]>();
  for (const b of bounds) {
    const how = b.result === 'honoured' ? (b.inclusive ? 'inclusive' : 'strict') : b.result === 'empty' ? 'brought nothing' : b.result;
    groups.set(how, [...(groups.get(how) ?? []), b.name]);
  }
  const names = (list: string[]) => (list.length > 4 ? `${list.slice(0, 3).join(', ')} and ${list.length - 3} more` : list.join(', '));
  return [...groups].map(([how, list]) => `${names(list)} ${how}`).join('; ');
}

interface FieldForm {
  name: string;
  test: (r: Record<string, unknown>) => boolean;
}

const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const num = (v: unknown) => numberOf(v) !== undefined;
const messagesWith = (key: string) => (r: Record<string, unknown>) => Array.isArray(r.messages) && r.messages.some((m) => isRecord(m) && text(m[key]));

/** Each call field Switchboard shows, with the forms it may take (the records' view reads any of them). */
const CALL_FIELDS: { name: string; forms: FieldForm[] }[] = [
  {
    name: 'transcript',
    forms: [
      { name: 'transcript', test: (r) => text(r.transcript) },
      { name: 'messages[].content', test: messagesWith('content') },
      { name: 'messages[].message', test: messagesWith('message') },
    ],
  },
  {
    name: 'summary',
    forms: [
      { name: 'summary', test: (r) => text(r.summary) },
      { name: 'analysis.summary', test: (r) => isRecord(r.analysis) && text(r.analysis.summary) },
    ],
  },
  {
    name: 'duration',
    forms: [
      { name: 'durationSeconds', test: (r) => num(r.durationSeconds) },
      { name: 'startedAt/endedAt', test: (r) => text(r.startedAt) && text(r.endedAt) },
    ],
  },
  {
    name: 'cost',
    forms: [
      { name: 'cost', test: (r) => num(r.cost) },
      { name: 'costBreakdown.total', test: (r) => isRecord(r.costBreakdown) && num(r.costBreakdown.total) },
    ],
  },
];

/** A 4xx answer to a query: the service refused what was asked. */
function isRefusal(err: unknown): err is ApiError {
  return (
    err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403 && err.status !== 404 && err.status !== 429
  );
}

/** The largest limit a refusal names ("limit must not be greater than 100"), when it is below what was asked. */
export function namedLimit(said: string, asked: number): number | undefined {
  const n = limitNamedIn(said);
  if (n !== undefined) return n < asked ? n : undefined;
  // "limit must be a whole number from 1 to 100": the largest number below what was asked.
  if (!/\blimit\b/i.test(said)) return undefined;
  const below = (said.match(/\d+/g) ?? []).map(Number).filter((k) => k > 1 && k < asked);
  return below.length ? Math.max(...below) : undefined;
}

/** Records with a readable createdAt, newest first. */
function stampsOf(records: Record<string, unknown>[]): CallStamp[] {
  return records
    .filter((r): r is Record<string, unknown> & { id: string; createdAt: string } => typeof r.id === 'string' && typeof r.createdAt === 'string')
    .map((r) => ({ id: r.id, createdAt: r.createdAt, t: Date.parse(r.createdAt) }))
    .filter((s) => !Number.isNaN(s.t))
    .sort((a, b) => b.t - a.t);
}

function firstId(list: Record<string, unknown>[] | undefined): string | undefined {
  const id = list?.find((r) => typeof r.id === 'string' && r.id !== '')?.id;
  return typeof id === 'string' ? id : undefined;
}

function span(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(got: Got & { ok: true }): string {
  if (got.body === undefined && got.text?.trim()) return `${got.contentType ? `a ${got.contentType}` : 'a non-JSON'} answer "${preview(got.text, 60)}"`;
  return describeBody(got.body);
}
