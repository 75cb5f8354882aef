// What a call record carries besides its fields and transcript, in sections, as the platform
// sends it (Vapi's Call: costBreakdown and `costs`, analysis, artifact.performanceMetrics, the
// recording): read field by field, whatever is present, so a record with none of them has no
// sections and a field of another type is shown as it came. The console's call page and
// `calls get` both show these; neither escapes here (the text is the service's: they do).
// No zod here (types only), as in records.ts.

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A number, or a numeric string (as a numeric column comes out of many JSON layers). */
const num = (v: unknown): number | undefined => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** One section of a call's page: labelled rows, and for latencies a table. */
export interface DetailSection {
  title: string;
  rows: [label: string, value: string][];
  /** a table under the rows: its header and rows, cells right-aligned but the first */
  table?: { header: string[]; rows: string[][] };
}

/**
 * A sum on a call's page: four places, which a breakdown's parts need (many are under a cent);
 * the page's own cost uses it too, so it reads the same as the breakdown's total.
 */
export const dollars = (v: unknown): string => {
  const n = num(v);
  return n === undefined ? text(v) : `$${n.toFixed(4)}`;
};

/** The costBreakdown's parts, in the platform's order, and what each is called here. */
const COST_PARTS: [key: string, label: string][] = [
  ['transport', 'transport'],
  ['stt', 'STT'],
  ['llm', 'LLM'],
  ['tts', 'TTS'],
  ['vapi', 'platform'],
  ['chat', 'chat'],
  ['total', 'total'],
];
const TOKEN_PARTS: [key: string, label: string][] = [
  ['llmPromptTokens', 'prompt tokens'],
  ['llmCompletionTokens', 'completion tokens'],
  ['llmCachedPromptTokens', 'cached prompt tokens'],
  ['ttsCharacters', 'TTS characters'],
];

/** One entry of the `costs` array: its type, what provided it, how much of it, what it cost. */
function costLine(c: unknown): [string, string] {
  if (!isRec(c)) return ['costs.?', text(c)];
  const what = [
    c.provider,
    isRec(c.model) ? c.model.model : undefined,
    isRec(c.transcriber) ? c.transcriber.provider : undefined,
    isRec(c.voice) ? c.voice.provider : undefined,
    c.subType,
  ]
    .filter((x) => typeof x === 'string' && x !== '')
    .join(' ');
  const amount = [
    num(c.minutes) !== undefined ? `${num(c.minutes)} min` : '',
    num(c.promptTokens) !== undefined ? `${num(c.promptTokens)} prompt + ${num(c.completionTokens) ?? 0} completion tokens` : '',
    num(c.characters) !== undefined ? `${num(c.characters)} characters` : '',
  ].filter(Boolean);
  return [`costs.${typeof c.type === 'string' ? c.type : '?'}`, [what, ...amount, c.cost === undefined ? '' : dollars(c.cost)].filter(Boolean).join('  ')];
}

function costSection(call: Rec): DetailSection | undefined {
  const rows: [string, string][] = [];
  const b = call.costBreakdown;
  if (isRec(b)) {
    const known = new Set([...COST_PARTS, ...TOKEN_PARTS].map(([k]) => k));
    for (const [k, label] of COST_PARTS) if (b[k] !== undefined && b[k] !== null) rows.push([label, dollars(b[k])]);
    for (const [k, label] of TOKEN_PARTS) if (b[k] !== undefined && b[k] !== null) rows.push([label, text(num(b[k]) ?? b[k])]);
    for (const [k, v] of Object.entries(b)) if (!known.has(k)) rows.push([k, text(v)]);
  } else if (b !== undefined && b !== null) rows.push(['breakdown', text(b)]);
  if (Array.isArray(call.costs)) for (const c of call.costs) rows.push(costLine(c));
  return rows.length ? { title: 'Cost', rows } : undefined;
}

function analysisSection(call: Rec): DetailSection | undefined {
  const a = call.analysis;
  if (a === undefined || a === null) return undefined;
  if (!isRec(a)) return { title: 'Analysis', rows: [['analysis', text(a)]] };
  const rows: [string, string][] = [];
  const named: Record<string, string> = { summary: 'summary', structuredData: 'structured data', successEvaluation: 'success evaluation' };
  for (const k of Object.keys(named)) if (a[k] !== undefined && a[k] !== null && a[k] !== '') rows.push([named[k], text(a[k])]);
  for (const [k, v] of Object.entries(a)) if (!(k in named) && v !== undefined) rows.push([k, text(v)]);
  return rows.length ? { title: 'Analysis', rows } : undefined;
}

/** The parts of a turn's latency, as the platform names them, and their column headers. */
const LATENCY_PARTS: [key: string, header: string][] = [
  ['modelLatency', 'model'],
  ['voiceLatency', 'voice'],
  ['transcriberLatency', 'transcriber'],
  ['endpointingLatency', 'endpointing'],
  ['turnLatency', 'turn'],
];
const ms = (v: unknown): string => {
  const n = num(v);
  return n === undefined ? (v === undefined || v === null ? '—' : text(v)) : String(Math.round(n));
};

/** A call's performance metrics: under artifact (the platform's place), or at the top level. */
function performanceMetricsOf(call: unknown): Rec | undefined {
  if (!isRec(call)) return undefined;
  const m = isRec(call.artifact) ? call.artifact.performanceMetrics : undefined;
  return isRec(m) ? m : isRec(call.performanceMetrics) ? call.performanceMetrics : undefined;
}

/** Each turn's whole latency (ms) a call's metrics give, in order; the ones that are not numbers left out. */
export function turnLatencies(call: unknown): number[] {
  const m = performanceMetricsOf(call);
  if (!m || !Array.isArray(m.turnLatencies)) return [];
  return m.turnLatencies.map((t) => (isRec(t) ? num(t.turnLatency) : undefined)).filter((n): n is number => n !== undefined);
}

function latencySection(call: Rec): DetailSection | undefined {
  const m = performanceMetricsOf(call);
  if (!m) return undefined;
  const turns = Array.isArray(m.turnLatencies) ? m.turnLatencies : [];
  const rows: string[][] = turns.map((t, i) => [String(i + 1), ...LATENCY_PARTS.map(([k]) => ms(isRec(t) ? t[k] : undefined))]);
  const averages = LATENCY_PARTS.map(([k]) => m[`${k}Average`]);
  if (averages.some((v) => v !== undefined)) rows.push(['average', ...averages.map(ms)]);
  const known = new Set(['turnLatencies', ...LATENCY_PARTS.map(([k]) => `${k}Average`)]);
  const other: [string, string][] = Object.entries(m)
    .filter(([k]) => !known.has(k))
    .map(([k, v]) => [k, typeof v === 'number' && /Latency/.test(k) ? `${ms(v)} ms` : text(v)]);
  if (!rows.length && !other.length) return undefined;
  return { title: 'Latency (ms)', rows: other, ...(rows.length ? { table: { header: ['#', ...LATENCY_PARTS.map(([, h]) => h)], rows } } : {}) };
}

/** The recording's addresses: the call's, else its artifact's. */
const RECORDING_FIELDS: [key: string, label: string][] = [
  ['recordingUrl', 'recording'],
  ['stereoRecordingUrl', 'stereo recording'],
  ['videoRecordingUrl', 'video recording'],
];

function recordingSection(call: Rec): DetailSection | undefined {
  const artifact = isRec(call.artifact) ? call.artifact : {};
  const rows: [string, string][] = [];
  for (const [k, label] of RECORDING_FIELDS) {
    const v = call[k] ?? artifact[k];
    if (v !== undefined && v !== null && v !== '') rows.push([label, text(v)]);
  }
  return rows.length ? { title: 'Recording', rows } : undefined;
}

/** The sections a call's record gives, in the order a page shows them; none for a record without those fields. */
export function callSections(call: unknown): DetailSection[] {
  if (!isRec(call)) return [];
  return [costSection(call), analysisSection(call), latencySection(call), recordingSection(call)].filter((s): s is DetailSection => s !== undefined);
}

/** The fields the sections show (the artifact's, below, one by one). */
const SECTION_FIELDS = new Set(['costBreakdown', 'costs', 'analysis', 'performanceMetrics', ...RECORDING_FIELDS.map(([k]) => k)]);
/** The artifact's fields the transcript and the sections show. */
const ARTIFACT_SHOWN = new Set(['messages', 'transcript', 'performanceMetrics', ...RECORDING_FIELDS.map(([k]) => k)]);

/**
 * The fields of a record neither `shown` (the page's own fields) nor the sections show, as
 * returned: the artifact's others as `artifact.<name>`.
 */
export function otherFields(call: unknown, shown: ReadonlySet<string>): [string, unknown][] {
  if (!isRec(call)) return [];
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(call)) {
    if (shown.has(k) || SECTION_FIELDS.has(k)) continue;
    if (k === 'artifact' && isRec(v)) {
      for (const [ak, av] of Object.entries(v)) if (!ARTIFACT_SHOWN.has(ak)) out.push([`artifact.${ak}`, av]);
    } else out.push([k, v]);
  }
  return out;
}

/** A section's table as lines of text: columns padded to their widest cell, the first left-aligned. */
export function tableLines(table: NonNullable<DetailSection['table']>): string[] {
  const all = [table.header, ...table.rows];
  const widths = table.header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}
