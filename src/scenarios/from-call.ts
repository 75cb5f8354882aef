// A real call as a regression test: the caller's lines become the turns, and the assistant's
// replies either snapshots (the assistant must answer as it did) or, with a judge, a rubric drawn
// from the call's summary and analysis (it must reach the same outcome). The assistant and the
// variables are the call's own, so the file replays the call against the same assistant.
import { InputError } from '../api/errors.js';
import { messageRole, viewCall } from '../api/records.js';
import type { Call } from '../api/schemas.js';
import type { ConversationToSave } from './save.js';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The variables the call was placed with (Vapi: assistantOverrides.variableValues), as scenario values. */
function variablesOf(call: Rec): Record<string, string> | undefined {
  const overrides = isRec(call.assistantOverrides) ? call.assistantOverrides : undefined;
  const values = isRec(overrides?.variableValues) ? overrides.variableValues : undefined;
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  return Object.keys(out).length ? out : undefined;
}

/** A phrase of a reply that can be quoted whole: its longest stretch without a double quote, cut at a word, at most 80 characters. */
function citable(reply: string): string {
  const stretch = reply
    .split(/["“”]/)
    .map((p) => p.trim())
    .sort((a, b) => b.length - a.length)[0];
  if (!stretch) return '';
  if (stretch.length <= 80) return stretch.replace(/[\s.,;:!?]+$/, '');
  const cut = stretch.slice(0, 80);
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), 40)).trim();
}

/** Double quotes in the call's own words become single ones: in a rubric, a quoted phrase is one the replies must contain. */
const unquoted = (text: string) => text.replace(/["“”]/g, "'");

/**
 * What a judge is asked: reach the outcome the real call reached, as its summary and analysis tell
 * it, saying what the assistant said then (quoted: a judge looks for those phrases in the replies).
 */
function rubricOf(call: Call, replies: readonly string[]): string {
  const v = viewCall(call);
  const analysis = isRec((call as Rec).analysis) ? ((call as Rec).analysis as Rec) : {};
  const parts = ['The assistant handles the caller as well as it did in the real call this test was made from.'];
  if (v.summary) parts.push(`That call went: ${unquoted(v.summary)}`);
  const success = analysis.successEvaluation;
  if (success !== undefined && success !== null && success !== '')
    parts.push(`The call was evaluated as: ${unquoted(typeof success === 'string' ? success : JSON.stringify(success))}.`);
  if (isRec(analysis.structuredData) && Object.keys(analysis.structuredData).length)
    parts.push(`The conversation should support the call's structured data: ${unquoted(JSON.stringify(analysis.structuredData))}.`);
  const cited = [...new Set(replies.map(citable).filter((c) => c.length >= 8))].slice(0, 3);
  if (cited.length) parts.push(`Its answers say what it said then: ${cited.map((c) => `"${c}"`).join(', ')}.`);
  return parts.join(' ');
}

/**
 * The conversation to save for `call`: its spoken turns (tool calls and system lines left out:
 * a scenario sends only what the caller said). A call in which the caller said nothing has no test.
 */
/** The assistant's lines that answer the caller (an opening line before the caller's first is not an answer). */
function repliesOf(messages: readonly { role: string | undefined; content: string }[]): string[] {
  const first = messages.findIndex((m) => m.role === 'user');
  return messages
    .slice(first)
    .filter((m) => m.role === 'assistant')
    .map((m) => m.content);
}

export function conversationOfCall(call: Call, opts: { judge?: boolean; assistant?: string } = {}): ConversationToSave {
  const v = viewCall(call);
  const messages = v.turns.filter((t) => t.text.trim() !== '' && (t.role === 'user' || t.role === 'assistant')).map((t) => ({ role: t.role, content: t.text }));
  if (!messages.some((m) => messageRole(m) === 'user'))
    throw new InputError(`call ${call.id} has no caller lines to replay (status ${v.status ?? 'unknown'}); pick a call in which the caller spoke`);
  const assistant = opts.assistant ?? v.assistantId;
  if (!assistant) throw new InputError(`call ${call.id} names no assistant, so a test cannot say whom to replay it against`);
  return {
    assistant,
    name: `From call ${call.id}`,
    variables: variablesOf(call as Rec),
    messages,
    ...(opts.judge ? { rubric: rubricOf(call, repliesOf(messages)) } : {}),
    origin: `Made from call ${call.id} by switchboard test from-call`,
  };
}
