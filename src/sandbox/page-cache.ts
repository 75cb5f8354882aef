// Serialised GET /calls pages, kept while they would read the same: until the calls change
// (any write, in this process or another) and no later than the next simulated change among
// the calls on the page. The call log is read far more often than it is written, and a page of
// ended calls never changes, so most reads skip the query, the views and JSON.stringify.
import type { CallMessage, CallRow } from './db.js';
import { callFieldsBeforeCost, callView, costBreakdownJson, messageStep, transcriptOf } from './simulate.js';

export interface CachedPage {
  body: Buffer;
  /** the calls' version the page was built from (SandboxStore.callsVersion) */
  version: string;
  /** built at this time (epoch ms); a clock that steps back does not reuse it */
  builtAt: number;
  /** the first moment it could read differently */
  validUntil: number;
}

/** Bytes of pages kept at most; the oldest go first. */
const MAX_BYTES = 16 * 1024 * 1024;

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;

  get(key: string, version: string, now: number): Buffer | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.version === version && now >= page.builtAt && now < page.validUntil) return page.body;
    this.drop(key, page);
    return undefined;
  }

  set(key: string, page: CachedPage): void {
    if (page.validUntil <= page.builtAt || page.body.length > MAX_BYTES / 4) return;
    const old = this.pages.get(key);
    if (old) this.drop(key, old);
    for (const [k, p] of this.pages) {
      if (this.bytes + page.body.length <= MAX_BYTES) break;
      this.drop(k, p);
    }
    this.pages.set(key, page);
    this.bytes += page.body.length;
  }

  private drop(key: string, page: CachedPage): void {
    this.pages.delete(key);
    this.bytes -= page.body.length;
  }
}

/** Ended calls kept at most (under a kilobyte each): a hundred pages of a hundred. */
const MAX_ENDED = 10_000;

/**
 * A call's list JSON. Call rows are only ever inserted, and an ended call never reads
 * differently again, so its JSON is built once and reused by every page it appears on, even
 * after a write made those pages stale.
 */
export class ListedCallJson {
  private readonly ended = new Map<string, string>();

  of(c: CallRow, now: number): string {
    if (now < c.endedAt) return JSON.stringify(callView(c, now, false));
    let json = this.ended.get(c.id);
    if (json === undefined) {
      json = JSON.stringify(callView(c, now, false));
      if (this.ended.size >= MAX_ENDED) this.ended.delete(this.ended.keys().next().value!);
      this.ended.set(c.id, json);
    }
    return json;
  }
}

/** Conversations kept at most (a seeded log repeats a few thousand). */
const MAX_CONVERSATIONS = 10_000;

/** The keys callView adds to each message of a conversation, in its order. */
const TIMING_KEYS = ['time', 'secondsFromStart'];

interface ConversationJson {
  messages: CallMessage[];
  /** each message's JSON (UTF-8) up to where its timing goes: `{"role":…,"message":…,"time":` */
  heads: Buffer[];
  /** the transcript's JSON (an ended call's: every message) */
  transcript: Buffer;
}

/** Bytes appended to one growing buffer: a page is built where it is sent from, never as one big string. */
class Bytes {
  private buf = Buffer.allocUnsafe(1 << 16);
  private len = 0;

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(bigger, 0, 0, this.len);
    this.buf = bigger;
  }

  text(s: string): void {
    this.room(s.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.len += this.buf.write(s, this.len);
  }

  bytes(b: Buffer): void {
    this.room(b.length);
    this.len += b.copy(this.buf, this.len);
  }

  done(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

/**
 * GET /calls/details bodies: exactly JSON.stringify({ message, calls: calls.map((c) =>
 * callView(c, now, true)) }), written as bytes. An ended call's messages and transcript (most
 * of a page) come from its conversation's pieces, encoded once per conversation: most calls
 * share a few thousand conversations. Only their timing and the call's own fields are written
 * per call; a call still live is written from callView as it stands.
 */
export class DetailedCallJson {
  private readonly conversations = new Map<string, ConversationJson | null>();

  constructor(private readonly load: (conversationId: string) => CallMessage[] | undefined) {}

  page(message: string, calls: readonly { call: CallRow; conversationId: string }[], now: number): Buffer {
    const out = new Bytes();
    out.text(`{"message":${JSON.stringify(message)},"calls":[`);
    calls.forEach(({ call, conversationId }, i) => {
      if (i) out.text(',');
      this.write(out, call, conversationId, now);
    });
    out.text(']}');
    return out.done();
  }

  /** One call's JSON (for tests: what a page holds for it). */
  of(c: CallRow, conversationId: string, now: number): string {
    const out = new Bytes();
    this.write(out, c, conversationId, now);
    return out.done().toString();
  }

  private write(out: Bytes, c: CallRow, conversationId: string, now: number): void {
    const conv = this.conversation(conversationId);
    if (now < c.endedAt || conv === null) {
      out.text(JSON.stringify(callView({ ...c, messages: conv?.messages ?? this.load(conversationId) ?? [] }, now, true)));
      return;
    }
    // callView's order: the list fields (costBreakdown and analysis last), then messages (spread
    // evenly over the talk), then transcript. An ended call's breakdown JSON is shared.
    const head =
      `${JSON.stringify(callFieldsBeforeCost(c, now)).slice(0, -1)},"cost":${c.cost},"costBreakdown":${costBreakdownJson(c)},"analysis":{"summary"` +
      `:${JSON.stringify(c.summary)}}}`;
    const n = conv.messages.length;
    const step = messageStep(c, n);
    const start = c.answeredAt ?? c.ringingAt;
    out.text(`${head.slice(0, -1)},"messages":[`);
    for (let i = 0; i < n; i++) {
      out.bytes(conv.heads[i]);
      // messageTiming's numbers, inlined: this runs for every message of a sync.
      out.text(`${Math.round(start + i * step)},"secondsFromStart":${Math.round(i * step) / 1000}}${i + 1 < n ? ',' : ''}`);
    }
    out.text('],"transcript":');
    out.bytes(conv.transcript);
    out.text('}');
  }

  /** The pieces of a conversation; null when they cannot be made exactly (its messages have their own timing keys). */
  private conversation(id: string): ConversationJson | null {
    let conv = this.conversations.get(id);
    if (conv !== undefined) return conv;
    const messages = this.load(id) ?? [];
    conv = messages.some((m) => typeof m !== 'object' || m === null || Array.isArray(m) || TIMING_KEYS.some((k) => Object.hasOwn(m, k)))
      ? null
      : {
          messages,
          heads: messages.map((m) => {
            const json = JSON.stringify(m);
            return Buffer.from(`${json.slice(0, -1)}${json === '{}' ? '' : ','}"time":`);
          }),
          transcript: Buffer.from(JSON.stringify(messages.length ? transcriptOf(messages) : '')),
        };
    if (this.conversations.size >= MAX_CONVERSATIONS) this.conversations.delete(this.conversations.keys().next().value!);
    this.conversations.set(id, conv);
    return conv;
  }
}
