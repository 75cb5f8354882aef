// Simulated inbound calls: "someone dials this DID" → a call answered by the linked assistant.
// ringViaDataDir opens the data dir's database directly rather than going over HTTP, so
// `switchboard sandbox ring` works whether or not a sandbox is running on that dir (SQLite's
// WAL and busy timeout let it write beside a running server, which derives call status from
// the stored timeline and so picks the call up at once).
import type { SandboxContext } from './context.js';
import { existsSync } from 'node:fs';
import { SandboxStore, dataPaths, openDatabase, type PhoneNumberRow } from './db.js';
import { conflict, notFound } from './errors.js';
import { loadKnowledge } from './files.js';
import { CallScript, callView, planCall, unitHash } from './simulate.js';

const CALLERS = ['Jordan Lee', 'Sam Patel', 'Maria Garcia', 'Alex Kim', 'Priya Shah', 'Chris Novak'];

/** Normalises what a person types for a DID: spaces, dashes, dots, brackets dropped; leading + added. */
function normaliseDid(did: string): string {
  const digits = did.replace(/[\s\-().]/g, '');
  return digits.startsWith('+') ? digits : `+${digits}`;
}

export interface RingOptions {
  /** the caller's number; a made-up one by default */
  from?: string;
  callerName?: string;
  /** ms per simulated second (default 1000) */
  pace?: number;
}

/** Rings the number with this DID (or phone-number id). Throws HttpError (errors.ts) 404 / 409 with a plain message. */
function ringNumber(store: SandboxStore, dataDir: string, didOrId: string, opts: RingOptions = {}): Record<string, unknown> {
  const number: PhoneNumberRow | undefined = store.getPhoneNumberByDid(normaliseDid(didOrId)) ?? store.getPhoneNumber(didOrId);
  if (!number) {
    const known = store
      .listPhoneNumbers()
      .map((n) => n.did)
      .join(', ');
    throw notFound(`no phone number ${didOrId} in this sandbox${known ? `; its numbers are ${known}` : ''}`);
  }
  if (!number.assistantId) {
    throw conflict(`${number.did} has no assistant linked for inbound calls; link one first (POST /phone-numbers/inbound/setup)`);
  }
  const assistant = store.getAssistant(number.assistantId);
  if (!assistant) throw conflict(`${number.did} is linked to assistant ${number.assistantId}, which no longer exists; link another`);
  const createdAt = Date.now();
  const h = unitHash(`${createdAt}-${number.did}`);
  const call = planCall({
    type: 'inboundPhoneCall',
    assistantId: assistant.id,
    phoneNumberId: number.id,
    script: new CallScript(assistant.body, loadKnowledge(store, dataDir, assistant.body)),
    customer: {
      number: opts.from ?? `+1415555${String(Math.floor(h * 10_000)).padStart(4, '0')}`,
      name: opts.callerName ?? CALLERS[Math.floor(h * CALLERS.length)],
    },
    createdAt,
    pace: opts.pace ?? 1000,
    // An inactive assistant answers no calls (what linking one warns): the call rings and ends unanswered.
    ...(assistant.body.status === false ? { endedReason: 'assistant-not-valid' as const } : {}),
  });
  store.insertCall(call);
  return callView(call, Date.now(), true);
}

/** The admin route's ring, with the running sandbox's pace. */
export const ringInSandbox = (ctx: SandboxContext, did: string) => ringNumber(ctx.store, ctx.dataDir, did, { pace: ctx.callPace });

/**
 * Rings the numbers that have an assistant linked, one after another (by DID), so a stream of
 * rings spreads over them. 409 when no number has one.
 */
export function ringNextLinked(ctx: SandboxContext): { call: Record<string, unknown>; to: string } {
  const linked = ctx.store
    .listPhoneNumbers()
    .filter((n) => n.assistantId)
    .sort((a, b) => (a.did < b.did ? -1 : a.did > b.did ? 1 : 0));
  if (linked.length === 0)
    throw conflict('no number of this sandbox has an assistant linked for inbound calls; link one first (POST /phone-numbers/inbound/setup)');
  const number = linked[ctx.rings++ % linked.length];
  return { call: ringInSandbox(ctx, number.did), to: number.did };
}

/** For `switchboard sandbox ring <did> [--data-dir D]`: rings on a data dir without a server. */
export function ringViaDataDir(dataDir: string, did: string, opts: RingOptions = {}): Record<string, unknown> {
  if (!existsSync(dataPaths(dataDir).db)) {
    throw new Error(`no sandbox data in ${dataDir}; start the sandbox once (switchboard sandbox) to create it`);
  }
  const { db } = openDatabase(dataDir);
  try {
    return ringNumber(new SandboxStore(db), dataDir, did, opts);
  } finally {
    db.close();
  }
}
