// The one place that knows the shapes records come in. The service sends calls, messages,
// numbers and files in more than one shape (our sandbox's, and the hosted platform's, which
// forwards Vapi's records: text in `message`, roles `bot`/`user`, no `durationSeconds`, the
// summary under `analysis`, cost under `costBreakdown`, `organization` for "the service").
// Records are kept and printed as they came; everything that reads them reads these views.
// No zod here (types only): the commands' parser loads this before anything heavy.
import type { Assistant, Call, PhoneNumber } from './schemas.js';
import { exampleOf, numberOf } from './adapt.js';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
// A number, or a numeric string's ("0.0018"): both count wherever Switchboard computes.
const finite = numberOf;
/**
 * A field read as text: a string as it is; a value of another type (a field whose type differs)
 * as received, in JSON, so it is shown rather than hidden; nothing for null or missing.
 */
export const shown = (v: unknown): string | undefined => (typeof v === 'string' ? v : v === null || v === undefined ? undefined : exampleOf(v, 80));

/** A message's words: `content` (our spec) or `message` (the platform's); parts' text joined when content is a list of parts. */
export function messageText(m: unknown): string {
  if (!isRec(m)) return typeof m === 'string' ? m : '';
  for (const v of [m.content, m.message]) {
    if (typeof v === 'string') return v;
    if (Array.isArray(v)) {
      const parts = v.map((p) => (typeof p === 'string' ? p : isRec(p) ? (str(p.text) ?? '') : '')).filter(Boolean);
      if (parts.length) return parts.join('\n');
    }
  }
  return '';
}

const ROLES: Record<string, string> = {
  bot: 'assistant',
  assistant: 'assistant',
  user: 'user',
  customer: 'user',
  system: 'system',
  // The platform's tool messages (its docs spell them with - or _), and OpenAI's `tool` (a result).
  tool_calls: 'tool-call',
  'tool-calls': 'tool-call',
  tool_call_result: 'tool-result',
  'tool-call-result': 'tool-result',
  tool: 'tool-result',
};

/** A message's speaker as 'assistant' | 'user' | 'system', another role as sent, or undefined when it names none. */
export function messageRole(m: unknown): string | undefined {
  const role = isRec(m) ? str(m.role) : undefined;
  if (role === undefined || role === '') return undefined;
  return ROLES[role.toLowerCase()] ?? role;
}

/** One turn of a call's transcript. */
interface TurnView {
  /**
   * 'assistant' | 'user' | 'system', 'tool-call' (one turn a call of a tool-calls message: its
   * text is the tool's name and compact arguments) | 'tool-result' (its text the tool's name and
   * result), another role as sent, or undefined when the message named none
   */
  role: string | undefined;
  text: string;
  /** the message's own time as sent (epoch ms or ISO 8601) */
  at?: number | string;
  secondsFromStart?: number;
}

/** A call as every reader sees it, whatever shape the service sent. */
export interface CallView {
  id: string;
  createdAt: string;
  assistantId?: string;
  phoneNumberId?: string;
  type?: string;
  status?: string;
  customer?: { number?: string; name?: string };
  startedAt?: string;
  endedAt?: string;
  endedReason?: string;
  updatedAt?: string;
  /** seconds of talk: given, or endedAt − startedAt; undefined when neither is known */
  durationSeconds?: number;
  cost?: number;
  summary?: string;
  /** the transcript as one text: given, or the turns' words one per line */
  transcript?: string;
  turns: TurnView[];
}

/** The fields a CallView reads from, so a record's other fields can be shown "as returned". */
export const CALL_VIEW_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'createdAt',
  'updatedAt',
  'assistantId',
  'phoneNumberId',
  'type',
  'status',
  'customer',
  'startedAt',
  'endedAt',
  'endedReason',
  'durationSeconds',
  'cost',
  'costBreakdown',
  'summary',
  'analysis',
  'transcript',
  'messages',
]);

const SPEAKER: Record<string, string> = { assistant: 'Assistant', user: 'Caller', system: 'System', 'tool-call': 'Tool call', 'tool-result': 'Tool result' };

/** Whether a turn is a tool's call or result rather than speech. */
export const isToolTurn = (role: string | undefined): boolean => role === 'tool-call' || role === 'tool-result';

/** A tool's arguments or result on one line: JSON compacted (a JSON string parsed first), other text as sent. */
function compact(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^[[{]/.test(t)) {
      try {
        return JSON.stringify(JSON.parse(t));
      } catch {
        // not JSON after all: the text as sent
      }
    }
    return v.replace(/\s*\n\s*/g, ' ');
  }
  return JSON.stringify(v) ?? '';
}

/** Whether a list of messages holds a tool's call or result (read without making the turns). */
function hasToolMessage(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  return messages.some((m) => isRec(m) && (Array.isArray(m.toolCalls) || Array.isArray(m.tool_calls) || isToolTurn(messageRole(m)) || 'result' in m));
}

/** The turns one message makes: a tool-calls message one a call, any other one. */
function messageTurns(m: unknown): TurnView[] {
  const role = messageRole(m);
  if (!isRec(m)) return [{ role, text: messageText(m) }];
  const calls = Array.isArray(m.toolCalls) ? m.toolCalls : Array.isArray(m.tool_calls) ? m.tool_calls : undefined;
  if (calls && (role === 'tool-call' || role === 'assistant' || role === undefined)) {
    const turns = calls.map((c): TurnView => {
      const fn = isRec(c) && isRec(c.function) ? c.function : isRec(c) ? c : {};
      // A call that names no function has nothing to show (its id alone says nothing to a reader).
      const name = str(fn.name) ?? '';
      const args = compact(fn.arguments);
      return { role: 'tool-call', text: name && args ? `${name} ${args}` : name };
    });
    // An assistant's words beside its tool calls (OpenAI's shape) stay a turn of their own, first.
    const said = messageText(m);
    return role === 'assistant' && said ? [{ role, text: said }, ...turns] : turns;
  }
  if (role === 'tool-result' || (role === undefined && 'result' in m)) {
    const name = str(m.name) ?? '';
    const result = compact('result' in m ? m.result : m.content);
    return [{ role: 'tool-result', text: name && result ? `${name}: ${result}` : name || result }];
  }
  return [{ role, text: messageText(m) }];
}

/** The word a transcript line starts with ("Assistant", "Caller"…). */
export function speakerWord(role: string | undefined): string {
  return role === undefined ? '—' : (SPEAKER[role] ?? role);
}

/** Seconds from `startedAt` to `endedAt`; undefined when either is missing or unreadable; never negative. */
function secondsBetween(startedAt: unknown, endedAt: unknown): number | undefined {
  const a = typeof startedAt === 'string' ? Date.parse(startedAt) : NaN;
  const b = typeof endedAt === 'string' ? Date.parse(endedAt) : NaN;
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return Math.max(0, (b - a) / 1000);
}

function callTurns(messages: unknown): TurnView[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((m) => {
    const turns = messageTurns(m);
    if (isRec(m)) {
      const at = finite(m.time) ?? str(m.time);
      const s = finite(m.secondsFromStart);
      for (const t of turns) {
        if (at !== undefined) t.at = at;
        if (s !== undefined) t.secondsFromStart = s;
      }
    }
    return turns;
  });
}

/** The text of a list of turns: one line a turn that says something, "Speaker: words". */
function turnsText(turns: readonly TurnView[]): string {
  return turns
    .filter((t) => t.text !== '' && t.role !== 'system')
    .map((t) => `${speakerWord(t.role)}: ${t.text}`)
    .join('\n');
}

/** A call's talk time in seconds (a row of a list needs no more of the view). */
export function callDuration(call: Call | Rec): number | undefined {
  const c = call as Rec;
  const given = finite(c.durationSeconds);
  return given !== undefined ? Math.max(0, given) : secondsBetween(c.startedAt, c.endedAt);
}

/** A call's cost: `cost`, or the platform's `costBreakdown.total`. */
export function callCost(call: Call | Rec): number | undefined {
  const c = call as Rec;
  return finite(c.cost) ?? (isRec(c.costBreakdown) ? finite(c.costBreakdown.total) : undefined);
}

/** A call record (in any shape the service sends) as one view. Cheap: the turns are read only when asked for. */
export function viewCall(call: Call | Rec): CallView {
  return new RecordView(call as Rec);
}

/** A view's fields read once, as plain properties (one shape for every call, so reading them stays fast). */
class RecordView implements CallView {
  readonly id: string;
  readonly createdAt: string;
  readonly assistantId: string | undefined;
  readonly phoneNumberId: string | undefined;
  readonly type: string | undefined;
  readonly status: string | undefined;
  readonly customer: { number?: string; name?: string } | undefined;
  readonly startedAt: string | undefined;
  readonly endedAt: string | undefined;
  readonly endedReason: string | undefined;
  readonly updatedAt: string | undefined;
  readonly durationSeconds: number | undefined;
  readonly cost: number | undefined;
  readonly summary: string | undefined;
  readonly transcript: string | undefined;
  #turns: TurnView[] | undefined;
  readonly #messages: unknown;

  constructor(c: Rec) {
    // Vapi also keeps the conversation under `artifact` (messages, transcript): read where the top level has none.
    const artifact = isRec(c.artifact) ? c.artifact : undefined;
    this.#messages = Array.isArray(c.messages) && c.messages.length ? c.messages : (artifact?.messages ?? c.messages);
    this.id = String(c.id ?? '');
    this.createdAt = str(c.createdAt) ?? '';
    this.assistantId = shown(c.assistantId);
    this.phoneNumberId = shown(c.phoneNumberId);
    this.type = shown(c.type);
    this.status = shown(c.status);
    this.customer = isRec(c.customer) ? { number: shown(c.customer.number), name: shown(c.customer.name) } : undefined;
    this.startedAt = str(c.startedAt);
    this.endedAt = str(c.endedAt);
    this.endedReason = shown(c.endedReason);
    this.updatedAt = str(c.updatedAt);
    this.durationSeconds = callDuration(c);
    this.cost = callCost(c);
    const analysis = isRec(c.analysis) ? c.analysis : undefined;
    this.summary = str(c.summary) || str(analysis?.summary) || undefined;
    // The service's own transcript text holds speech only: where the messages hold tool calls, the
    // dialogue read from them (speech and tools in order) is the transcript, so a word only in a
    // tool's arguments or result is exported and found.
    const given = str(c.transcript) || str(artifact?.transcript);
    this.transcript = (given && !hasToolMessage(this.#messages) ? given : turnsText(this.turns)) || given || undefined;
  }

  get turns(): TurnView[] {
    return (this.#turns ??= callTurns(this.#messages));
  }
}

/** "The service" object a number or file names: `organization` (the platform's) or `service` (our spec's). */
export function serviceOfRecord(record: unknown): { id?: string; name?: string } | undefined {
  if (!isRec(record)) return undefined;
  const o = isRec(record.organization) ? record.organization : isRec(record.service) ? record.service : undefined;
  if (!o) return undefined;
  return { ...(str(o.id) !== undefined ? { id: str(o.id) } : {}), ...(str(o.name) !== undefined ? { name: str(o.name) } : {}) };
}

/** "Name (id)", the name or the id of a service object; undefined for none. */
export function serviceWords(s: { id?: string; name?: string } | undefined): string | undefined {
  if (!s) return undefined;
  if (s.name && s.id) return `${s.name} (${s.id})`;
  return s.name ?? s.id;
}

/** Where a number's assistant was learned: the service's record, or a link this profile made itself. */
type LinkSource = 'service' | 'here';

/** The assistant linked to a number for inbound calls. */
export interface NumberLink {
  assistantId: string;
  source: LinkSource;
}

/** A number's phone number: `did` (our spec) or `number` (the platform's); undefined when it gives neither. */
export function numberDid(n: PhoneNumber | Rec | undefined): string | undefined {
  if (!n) return undefined;
  const r = n as Rec;
  return str(r.did) || str(r.number) || undefined;
}

/** What a number is called: its DID, else its name, else its id. */
export function numberLabel(n: PhoneNumber | Rec): string {
  return numberDid(n) ?? (str((n as Rec).name) || String((n as Rec).id ?? ''));
}

/**
 * Whether a number takes calls: the spec's boolean `status`, or the platform's "active"; its
 * other words ("activating", "blocked") are not active. Undefined when the record says nothing.
 */
export function numberActive(n: PhoneNumber | Rec): boolean | undefined {
  const status = (n as Rec).status;
  if (typeof status === 'boolean') return status;
  if (typeof status === 'string' && status !== '') return status.toLowerCase() === 'active';
  return undefined;
}

/** A number's status in words: "active" / "inactive" for the spec's boolean, the platform's own word as sent. */
export function numberStatusWord(n: PhoneNumber | Rec): string {
  const status = (n as Rec).status;
  if (typeof status === 'boolean') return status ? 'active' : 'inactive';
  return shown(status) ?? '';
}

/** The assistant id a number's record names: `assistantId`, or an `assistant` object's id. */
function numberAssistantId(n: PhoneNumber | Rec): string | undefined {
  const r = n as Rec;
  return str(r.assistantId) || (isRec(r.assistant) ? str(r.assistant.id) : undefined) || undefined;
}

/**
 * The assistant linked to a number: what the service's record says, else what this profile
 * linked itself (`links`: number id → assistant id), labelled as such.
 */
export function linkOfNumber(n: PhoneNumber | Rec, links?: Readonly<Record<string, string>>): NumberLink | undefined {
  const said = numberAssistantId(n);
  if (said) return { assistantId: said, source: 'service' };
  // The service says a number has no assistant only with an explicit null: then our old link is stale.
  if ((n as Rec).assistantId === null) return undefined;
  const here = links?.[String((n as Rec).id)];
  return here ? { assistantId: here, source: 'here' } : undefined;
}

/** The words for a link: the assistant's name, marked when only this profile's own link says it. */
export function linkWords(link: NumberLink | undefined, name: (id: string) => string): string {
  if (!link) return '—';
  return link.source === 'here' ? `${name(link.assistantId)} (linked here)` : name(link.assistantId);
}

/** The knowledge-base files an assistant uses: its own list and its model's (services put it in either), each once. */
export function kbFileIds(a: Assistant): string[] {
  return [...new Set([...(a.knowledgeBase?.fileIds ?? []), ...(a.model?.knowledgeBase?.fileIds ?? [])])];
}
