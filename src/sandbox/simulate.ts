// Call simulation. A call is stored with its whole planned timeline (ringing, answered, ended)
// and its conversation; what a reader sees — status, startedAt, the messages so far — is
// derived from those timestamps at read time, so it stays right across restarts and needs
// no timers.
import { randomUUID } from 'node:crypto';
import type { CallMessage, CallRow } from './db.js';
import { composeReply, passagesOf, personaOf, type KnowledgeDoc } from './chat.js';

export type CallStatus = 'queued' | 'ringing' | 'in-progress' | 'ended';
export const CALL_STATUSES: CallStatus[] = ['queued', 'ringing', 'in-progress', 'ended'];
export const ENDED_REASONS = [
  'customer-ended-call',
  'assistant-ended-call',
  'silence-timed-out',
  'exceeded-max-duration',
  'customer-did-not-answer',
  'customer-busy',
  'voicemail',
  // An inbound call to a number whose assistant is inactive: the service has no assistant to start, and nobody answers.
  'assistant-not-valid',
] as const;
export type EndedReason = (typeof ENDED_REASONS)[number];

/** What customers ask when the assistant has no knowledge-base headings to ask about. */
const CUSTOMER_QUESTIONS = [
  'What are your opening hours on Saturday?',
  'How do I return an item I bought last week?',
  'Do you ship internationally?',
  'I would like to book an appointment for next Tuesday.',
  'Can you tell me about the warranty?',
  'How much does the premium plan cost?',
];

/**
 * A UUIDv7: creation time in the first 48 bits, so call ids sort by time and new rows land at
 * the end of the primary-key index (bulk inserts stay fast).
 */
function timeOrderedId(ms: number): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  const r = randomUUID(); // random bits and a valid variant; Node batches its entropy
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.slice(15, 18)}-${r.slice(19)}`;
}

/** 0 ≤ n < 1, stable for a given seed string (FNV-1a; spread, not secrecy). */
export function unitHash(seed: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 0x1_0000_0000;
}

/**
 * What one assistant says on calls: its greeting (with the caller's name), the questions
 * callers ask (its knowledge-base headings, so answers are grounded) and its answers. Built
 * once per assistant and memoised, so seeding thousands of calls stays cheap.
 */
/** What every simulated caller says last; the assistant answers it as it would in a chat. */
const CLOSING = "Great, that's all I needed. Thanks!";

export class CallScript {
  readonly questions: string[];
  readonly name: string;
  private readonly greetings = new Map<string, string>();
  private readonly answers = new Map<string, string>();

  constructor(
    private readonly assistant: Record<string, unknown>,
    private readonly docs: KnowledgeDoc[],
  ) {
    // Each document's section headings (its first heading is its title).
    const headings = docs.flatMap((d) => [...new Set(passagesOf(d.name, d.text).map((p) => p.heading))].slice(1)).filter((h) => h && h.length < 60);
    const asked = headings.map((h) => (h.endsWith('?') ? h : `Can you tell me about ${h.charAt(0).toLowerCase()}${h.slice(1)}?`));
    this.questions = asked.length ? asked : CUSTOMER_QUESTIONS;
    this.name = personaOf(assistant).name;
  }

  greeting(customerName: string | undefined): string {
    const key = customerName ?? '';
    let g = this.greetings.get(key);
    if (g === undefined) {
      // A call knows one variable: who is on the line.
      const p = personaOf(this.assistant, { customerName: customerName ?? 'there' });
      g = p.firstMessage.trim() || `Hello, this is ${p.name}. How can I help you today?`;
      this.greetings.set(key, g);
    }
    return g;
  }

  answer(question: string): string {
    let a = this.answers.get(question);
    if (a === undefined) {
      a = composeReply(personaOf(this.assistant), this.docs, question);
      this.answers.set(question, a);
    }
    return a;
  }

  /**
   * Greeting, question, grounded answer, goodbye; in the platform's shape (the assistant is `bot`).
   * One frozen array per question and name, shared by every call that has it: the store then
   * serialises and hashes each conversation once (SandboxStore.insertCalls), not once per call.
   */
  conversation(question: string, customerName: string | undefined): readonly CallMessage[] {
    const key = `${customerName ?? ''}\u0000${question}`;
    let c = this.conversations.get(key);
    if (c === undefined) {
      c = Object.freeze(
        [
          { role: 'bot', message: this.greeting(customerName) },
          { role: 'user', message: question },
          { role: 'bot', message: this.answer(question) },
          { role: 'user', message: CLOSING },
          { role: 'bot', message: this.answer(CLOSING) },
        ].map((m) => Object.freeze(m)),
      );
      this.conversations.set(key, c);
    }
    return c;
  }
  private readonly conversations = new Map<string, readonly CallMessage[]>();
}

/** The platform's transcript: one line a message, "AI: …" for the assistant, "User: …" for the caller. */
export const transcriptOf = (messages: readonly CallMessage[]) =>
  messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role === 'bot' || m.role === 'assistant' ? 'AI' : 'User'}: ${m.message}`)
    .join('\n');

export interface PlanInput {
  type: CallRow['type'];
  assistantId: string;
  phoneNumberId: string;
  script: CallScript;
  customer: { number: string; name?: string };
  createdAt: number; // epoch ms
  /** ms per simulated second */
  pace: number;
  id?: string;
  endedReason?: EndedReason;
  /** simulated talk seconds; default 4–8 */
  talkSeconds?: number;
}

/** The ends of a call nobody answered: no talk, no messages. */
const UNANSWERED = new Set<EndedReason>(['customer-did-not-answer', 'customer-busy', 'assistant-not-valid']);

/** Plans a whole call: outbound waits 1 s queued and rings 2 s; inbound rings at once for 2 s. */
export function planCall(p: PlanInput): CallRow {
  const id = p.id ?? timeOrderedId(p.createdAt);
  const h = unitHash(id);
  const ringingAt = p.createdAt + (p.type === 'outboundPhoneCall' ? 1 : 0) * p.pace;
  const reason: EndedReason = p.endedReason ?? 'customer-ended-call';
  const answered = !UNANSWERED.has(reason);
  const answeredAt = ringingAt + 2 * p.pace;
  const talkSeconds = p.talkSeconds ?? 4 + Math.floor(h * 5);
  const question = p.script.questions[Math.floor(h * p.script.questions.length)];
  const messages = answered ? p.script.conversation(question, p.customer.name) : [];
  const endedAt = answered ? answeredAt + talkSeconds * p.pace : ringingAt + (reason === 'customer-busy' ? 1 : 6) * p.pace;
  const durationSeconds = answered ? (endedAt - answeredAt) / 1000 : 0;
  const name = p.script.name;
  const who = p.customer.name ? `${p.customer.name} (${p.customer.number})` : p.customer.number;
  const summary = answered
    ? `${p.type === 'inboundPhoneCall' ? 'Inbound call from' : 'Outbound call to'} ${who}. The customer asked: "${question}" ${name} answered; the call ` +
      `ended (${reason}).`
    : `${p.type === 'inboundPhoneCall' ? 'Inbound call from' : 'Outbound call to'} ${who} was not answered (${reason}).`;
  return {
    id,
    type: p.type,
    assistantId: p.assistantId,
    phoneNumberId: p.phoneNumberId,
    customer: p.customer.name === undefined ? { number: p.customer.number } : { number: p.customer.number, name: p.customer.name },
    createdAt: p.createdAt,
    ringingAt,
    answeredAt: answered ? answeredAt : null,
    endedAt,
    endedReason: reason,
    // $0.05 a minute of talk plus a cent to place the call
    cost: Math.round((0.01 + (durationSeconds / 60) * 0.05) * 10_000) / 10_000,
    summary,
    messages,
  };
}

/** Dates 0001–9999 (where toISOString's form is fixed-width), in whole milliseconds. */
const FIXED_ISO = { min: -62_135_596_800_000, max: 253_402_300_799_999 };
let isoMinute = NaN;
let isoPrefix = '';

/**
 * new Date(ms).toISOString(), with the text up to the minute made once a minute: a page of a
 * full sync formats four times a call, and a call's times share their minute with its neighbours'.
 */
export function iso(ms: number): string {
  if (!Number.isInteger(ms) || ms < FIXED_ISO.min || ms > FIXED_ISO.max) return new Date(ms).toISOString();
  const minute = Math.floor(ms / 60_000);
  if (minute !== isoMinute) {
    isoMinute = minute;
    isoPrefix = new Date(minute * 60_000).toISOString().slice(0, 17);
  }
  const rest = ms - minute * 60_000;
  const sec = Math.floor(rest / 1000);
  const milli = rest - sec * 1000;
  return `${isoPrefix}${sec < 10 ? '0' : ''}${sec}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
const cents4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * costBreakdownOf(c, true) as JSON. It depends only on the cost and the talk time, which repeat
 * across a log (a seeded one has a few hundred pairs), so each pair's JSON is made once: a page
 * of full records would otherwise format six decimals a call.
 */
export function costBreakdownJson(c: CallRow): string {
  const talked = c.answeredAt === null ? -1 : c.endedAt - c.answeredAt;
  let byTalk = BREAKDOWNS.get(c.cost);
  if (!byTalk) {
    if (BREAKDOWNS.size >= 10_000) BREAKDOWNS.clear();
    BREAKDOWNS.set(c.cost, (byTalk = new Map()));
  }
  let json = byTalk.get(talked);
  if (json === undefined) byTalk.set(talked, (json = JSON.stringify(costBreakdownOf(c, true))));
  return json;
}
const BREAKDOWNS = new Map<number, Map<number, string>>();

/**
 * The platform's costBreakdown of a call's cost: placing it (transport) and, per minute talked,
 * speech-to-text, text-to-speech and the platform; the language model takes the rest, so the
 * parts add up to `total`, which is `cost`. All 0 until the call ends.
 */
function costBreakdownOf(c: CallRow, ended: boolean): Record<string, number> {
  if (!ended) return { transport: 0, stt: 0, llm: 0, tts: 0, vapi: 0, total: 0 };
  const minutes = c.answeredAt === null ? 0 : (c.endedAt - c.answeredAt) / 60_000;
  const transport = cents4(Math.min(c.cost, 0.01));
  const stt = cents4(minutes * 0.01);
  const tts = cents4(minutes * 0.015);
  const vapi = cents4(minutes * 0.01);
  const llm = cents4(Math.max(0, c.cost - transport - stt - tts - vapi));
  return { transport, stt, llm, tts, vapi, total: c.cost };
}

/**
 * The first moment after `now` at which callView(c, ·, false) reads differently: the next
 * status change. Infinity once the call has ended. Cached list pages expire by it.
 */
export function listViewChangesAt(c: CallRow, now: number): number {
  if (now >= c.endedAt) return Infinity;
  return Math.min(...[c.ringingAt, c.answeredAt ?? Infinity, c.endedAt].filter((t) => t > now));
}

/** The time between a call's messages: its talk time shared evenly among them. */
export const messageStep = (c: CallRow, count: number) => (c.answeredAt === null ? 0 : (c.endedAt - c.answeredAt) / Math.max(1, count));

/**
 * The call as a reader sees it at `now`, in the platform's (Vapi's) call shape: startedAt and
 * endedAt (no duration field: it is endedAt − startedAt), cost with its costBreakdown, the summary
 * under analysis. List answers leave out transcript and messages.
 */
export function callView(c: CallRow, now: number, full: boolean): Record<string, unknown> {
  const view = callFieldsBeforeCost(c, now);
  const isEnded = view.status === 'ended';
  view.cost = isEnded ? c.cost : 0;
  view.costBreakdown = costBreakdownOf(c, isEnded);
  view.analysis = isEnded ? { summary: c.summary } : {};
  const { answeredAt: answered, ringingAt: ringing, endedAt: ended } = c;
  if (full) {
    // Messages are spread evenly over the talk time; while a call is live, the ones said so far.
    const step = messageStep(c, c.messages.length);
    const talkedMs = answered !== null && now >= answered ? Math.min(now, ended) - answered : 0;
    const messages = c.messages
      .map((m, i) => ({ ...m, ...messageTiming(answered ?? ringing, step, i) }))
      .filter((m) => isEnded || (answered !== null && m.secondsFromStart * 1000 <= talkedMs));
    view.messages = messages;
    view.transcript = messages.length ? transcriptOf(messages) : isEnded ? '' : null;
  }
  return view;
}

/** callView's fields up to (not with) cost, costBreakdown and analysis, in its order. */
export function callFieldsBeforeCost(c: CallRow, now: number): Record<string, unknown> {
  const { ringingAt: ringing, answeredAt: answered, endedAt: ended } = c;
  const status: CallStatus = now >= ended ? 'ended' : answered !== null && now >= answered ? 'in-progress' : now >= ringing ? 'ringing' : 'queued';
  // The latest moment of the timeline reached by now (no arrays: this runs for every call of a page).
  const updated = Math.max(
    c.createdAt,
    ringing <= now ? ringing : -Infinity,
    answered !== null && answered <= now ? answered : -Infinity,
    ended <= now ? ended : -Infinity,
  );
  const endedAt = status === 'ended' ? iso(ended) : null;
  return {
    id: c.id,
    type: c.type,
    assistantId: c.assistantId,
    phoneNumberId: c.phoneNumberId,
    status,
    customer: c.customer,
    createdAt: iso(c.createdAt),
    updatedAt: endedAt !== null && updated === ended ? endedAt : iso(updated),
    startedAt: answered !== null && now >= answered ? iso(answered) : null,
    endedAt,
    endedReason: status === 'ended' ? c.endedReason : null,
  };
}

/** When message `i` was said: epoch ms (`time`) and seconds from the call's start (page-cache.ts writes the same inline). */
function messageTiming(start: number, step: number, i: number): { time: number; secondsFromStart: number } {
  return { time: Math.round(start + i * step), secondsFromStart: Math.round(i * step) / 1000 };
}
