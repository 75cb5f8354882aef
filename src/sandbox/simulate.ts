// Call simulation. A call is stored with its whole planned timeline (ringing, answered, ended)
// and its conversation; what a reader sees — status, startedAt, the messages so far — is
// derived from those timestamps at read time, so it stays right across restarts and needs
// no timers.
import { createHash, randomBytes } from 'node:crypto';
import type { CallRow, ChatMessage } from './db.js';
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
] as const;
export type EndedReason = (typeof ENDED_REASONS)[number];

interface TimedMessage extends ChatMessage {
  secondsFromStart: number;
}

/** What customers ask when the assistant has no knowledge-base headings to ask about. */
export const CUSTOMER_QUESTIONS = [
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
export function timeOrderedId(ms: number): string {
  const b = randomBytes(16);
  b.writeUIntBE(Math.max(0, Math.floor(ms)), 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** 0 ≤ n < 1, stable for a given seed string. */
export function unitHash(seed: string): number {
  return createHash('sha1').update(seed).digest().readUInt32BE(0) / 0x1_0000_0000;
}

/**
 * What one assistant says on calls: its greeting (with the caller's name), the questions
 * callers ask (its knowledge-base headings, so answers are grounded) and its answers. Built
 * once per assistant and memoised, so seeding thousands of calls stays cheap.
 */
export class CallScript {
  readonly questions: string[];
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
  }

  get name(): string {
    return personaOf(this.assistant).name;
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

  /** Greeting, question, grounded answer, goodbye — spread over `talkSeconds`. */
  conversation(question: string, customerName: string | undefined, talkSeconds: number): TimedMessage[] {
    const lines: [string, string][] = [
      ['assistant', this.greeting(customerName)],
      ['user', question],
      ['assistant', this.answer(question)],
      ['user', "Great, that's all I needed. Thanks!"],
      ['assistant', "You're welcome. Have a great day, goodbye!"],
    ];
    const step = talkSeconds / lines.length;
    return lines.map(([role, content], i) => ({ role, content, secondsFromStart: Math.round(i * step * 10) / 10 }));
  }
}

export const transcriptOf = (messages: ChatMessage[]) =>
  messages.map((m) => `${m.role === 'assistant' ? 'AI' : 'User'}: ${m.content}`).join('\n');

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

/** Plans a whole call: outbound waits 1 s queued and rings 2 s; inbound rings at once for 2 s. */
export function planCall(p: PlanInput): CallRow {
  const id = p.id ?? timeOrderedId(p.createdAt);
  const h = unitHash(id);
  const ringingAt = p.createdAt + (p.type === 'outboundPhoneCall' ? 1 : 0) * p.pace;
  const reason: EndedReason = p.endedReason ?? 'customer-ended-call';
  const answered = reason !== 'customer-did-not-answer' && reason !== 'customer-busy';
  const answeredAt = ringingAt + 2 * p.pace;
  const talkSeconds = p.talkSeconds ?? 4 + Math.floor(h * 5);
  const question = p.script.questions[Math.floor(h * p.script.questions.length)];
  const messages = answered
    ? p.script.conversation(question, p.customer.name, talkSeconds).map((m) => ({ ...m, secondsFromStart: Math.round(m.secondsFromStart * p.pace) / 1000 }))
    : [];
  const endedAt = answered ? answeredAt + talkSeconds * p.pace : ringingAt + (reason === 'customer-busy' ? 1 : 6) * p.pace;
  const durationSeconds = answered ? (endedAt - answeredAt) / 1000 : 0;
  const name = p.script.name;
  const who = p.customer.name ? `${p.customer.name} (${p.customer.number})` : p.customer.number;
  const summary = answered
    ? `${p.type === 'inboundPhoneCall' ? 'Inbound call from' : 'Outbound call to'} ${who}. The customer asked: "${question}" ${name} answered; the call ended (${reason}).`
    : `${p.type === 'inboundPhoneCall' ? 'Inbound call from' : 'Outbound call to'} ${who} was not answered (${reason}).`;
  return {
    id,
    type: p.type,
    assistantId: p.assistantId,
    phoneNumberId: p.phoneNumberId,
    customer: p.customer.name === undefined ? { number: p.customer.number } : { number: p.customer.number, name: p.customer.name },
    createdAt: iso(p.createdAt),
    ringingAt: iso(ringingAt),
    answeredAt: answered ? iso(answeredAt) : null,
    endedAt: iso(endedAt),
    endedReason: reason,
    // $0.05 a minute of talk plus a cent to place the call
    cost: Math.round((0.01 + (durationSeconds / 60) * 0.05) * 10_000) / 10_000,
    summary,
    messages,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The call as a reader sees it at `now`. List answers leave out transcript and messages. */
export function callView(c: CallRow, now: number, full: boolean): Record<string, unknown> {
  const ringing = Date.parse(c.ringingAt);
  const answered = c.answeredAt ? Date.parse(c.answeredAt) : null;
  const ended = Date.parse(c.endedAt);
  const status: CallStatus =
    now >= ended ? 'ended' : answered !== null && now >= answered ? 'in-progress' : now >= ringing ? 'ringing' : 'queued';
  const reached = [Date.parse(c.createdAt), ringing, answered ?? Infinity, ended].filter((t) => t <= now);
  const isEnded = status === 'ended';
  const talked = answered !== null && now >= answered ? (Math.min(now, ended) - answered) / 1000 : 0;
  const view: Record<string, unknown> = {
    id: c.id,
    type: c.type,
    assistantId: c.assistantId,
    phoneNumberId: c.phoneNumberId,
    status,
    customer: c.customer,
    createdAt: c.createdAt,
    updatedAt: iso(Math.max(...reached, Date.parse(c.createdAt))),
    startedAt: answered !== null && now >= answered ? c.answeredAt : null,
    endedAt: isEnded ? c.endedAt : null,
    endedReason: isEnded ? c.endedReason : null,
    durationSeconds: Math.round(talked * 10) / 10,
    cost: isEnded ? c.cost : 0,
    summary: isEnded ? c.summary : null,
  };
  if (full) {
    // While a call is live, the conversation so far.
    const messages = isEnded ? c.messages : (c.messages as TimedMessage[]).filter((m) => answered !== null && m.secondsFromStart <= talked);
    view.messages = messages;
    view.transcript = messages.length ? transcriptOf(messages) : isEnded ? '' : null;
  }
  return view;
}
