// Demo data for a new data dir, from assets/: assistants across providers, phone numbers (most
// linked), knowledge-base files attached to assistants, and a month of past calls.
// seedCalls also serves the benchmark: it inserts N calls, a chunk per transaction.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxStore, dataPaths, openDatabase, type AssistantRow, type CallRow, type Db, type FileRow, type PhoneNumberRow } from './db.js';
import { contentPath, loadKnowledge, mimetypeOf, textPath } from './files.js';
import { CallScript, ENDED_REASONS, planCall, type EndedReason } from './simulate.js';
import type { KnowledgeDoc } from './chat.js';

const SEED_CALL_COUNT = 300;
const DAY = 86_400_000;

/** assets/ of the package, found from this module whether it runs from src/ or the dist/ bundle. */
function assetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'assets', 'seed', 'assistants.json'))) return join(dir, 'assets');
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the assets/ folder of switchboard (seed data); reinstall the package');
    dir = up;
  }
}

interface SeedNumber {
  did: string;
  domain: string;
  provider: string;
  externalId: string;
  status: boolean;
  assistant: string | null;
}

/**
 * Where the seed goes: a data dir's store and files, or the tests' in-memory service
 * (test/support/memory-api.ts), which so holds the same records as a fresh sandbox.
 */
export interface SeedTarget {
  insertFile(f: FileRow): void;
  /** The text of a seeded knowledge-base file (its bytes and its extracted text are the same). */
  saveText(id: string, text: string): void;
  insertAssistant(a: AssistantRow): void;
  insertPhoneNumber(n: PhoneNumberRow): void;
  listAssistants(): AssistantRow[];
  listPhoneNumbers(): PhoneNumberRow[];
  countFiles(): number;
  insertCalls(calls: CallRow[]): number;
  knowledge(assistant: Record<string, unknown>): KnowledgeDoc[];
}

function dataDirTarget(store: SandboxStore, dataDir: string): SeedTarget {
  return {
    insertFile: (f) => store.insertFile(f),
    saveText: (id, text) => {
      writeFileSync(contentPath(dataDir, id), text, { mode: 0o600 });
      writeFileSync(textPath(dataDir, id), text, { mode: 0o600 });
    },
    insertAssistant: (a) => store.insertAssistant(a),
    insertPhoneNumber: (n) => store.insertPhoneNumber(n),
    listAssistants: () => store.listAssistants(),
    listPhoneNumbers: () => store.listPhoneNumbers(),
    countFiles: () => store.countFiles(),
    insertCalls: (calls) => store.insertCalls(calls),
    knowledge: (assistant) => loadKnowledge(store, dataDir, assistant),
  };
}

/** Seeds an empty store. In a data dir it runs inside the transaction that creates the schema, so it is all or nothing. */
export function seedStore(store: SeedTarget, now = Date.now()): void {
  const assets = assetsDir();
  // Knowledge-base files, referenced from the seed assistants as "kb:<file name>".
  const fileIds = new Map<string, string>();
  const kbDir = join(assets, 'kb');
  readdirSync(kbDir)
    .sort()
    .forEach((name, i) => {
      const id = randomUUID();
      const text = readFileSync(join(kbDir, name), 'utf8');
      store.saveText(id, text);
      const at = new Date(now - (40 - i) * DAY).toISOString();
      store.insertFile({
        id,
        name,
        bytes: Buffer.byteLength(text),
        mimetype: mimetypeOf(name),
        status: 'done',
        parsedTextBytes: Buffer.byteLength(text),
        createdAt: at,
        updatedAt: at,
      });
      fileIds.set(`kb:${name}`, id);
    });
  const resolveKb = (_key: string, v: unknown) => (typeof v === 'string' && v.startsWith('kb:') ? (fileIds.get(v) ?? v) : v);

  const assistants = JSON.parse(readFileSync(join(assets, 'seed', 'assistants.json'), 'utf8'), resolveKb) as Record<string, unknown>[];
  const idByName = new Map<string, string>();
  assistants.forEach((body, i) => {
    const id = randomUUID();
    const at = new Date(now - (60 - i * 3) * DAY).toISOString();
    store.insertAssistant({ id, body, createdAt: at, updatedAt: at });
    idByName.set(body.name as string, id);
  });

  const numbers = JSON.parse(readFileSync(join(assets, 'seed', 'phone-numbers.json'), 'utf8')) as SeedNumber[];
  numbers.forEach((n, i) => {
    const at = new Date(now - (50 - i) * DAY).toISOString();
    const { assistant, did, ...body } = n;
    store.insertPhoneNumber({
      id: randomUUID(),
      did,
      body: { accountId: 'acct-sandbox', ...body, organization: { id: 'sandbox', name: 'Switchboard Sandbox' } },
      assistantId: assistant ? (idByName.get(assistant) ?? null) : null,
      createdAt: at,
      updatedAt: at,
    });
  });

  insertSyntheticCalls(store, SEED_CALL_COUNT, now);
}

/** Opens the data dir's database, seeding it when it is new. */
export function openSeeded(dataDir: string, seed: boolean) {
  return openDatabase(dataDir, seed ? (db) => seedStore(dataDirTarget(new SandboxStore(db), dataDir)) : undefined);
}

// Small deterministic PRNG so seeded data looks varied but needs no randomness source.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FIRST = ['Jordan', 'Sam', 'Maria', 'Alex', 'Priya', 'Chris', 'Dana', 'Wei', 'Fatima', 'Lucas', 'Olivia', 'Kenji', 'Amara', 'Noah'];
const LAST = ['Lee', 'Patel', 'Garcia', 'Kim', 'Shah', 'Novak', 'Okafor', 'Chen', 'Haddad', 'Silva', 'Brown', 'Tanaka', 'Mensah', 'Walsh'];
const REASON_WEIGHTS: [EndedReason, number][] = [
  ['customer-ended-call', 0.62],
  ['assistant-ended-call', 0.14],
  ['silence-timed-out', 0.05],
  ['exceeded-max-duration', 0.02],
  ['customer-did-not-answer', 0.09],
  ['customer-busy', 0.05],
  ['voicemail', 0.03],
];

function pickReason(r: number): EndedReason {
  for (const [reason, w] of REASON_WEIGHTS) {
    if (r < w) return reason;
    r -= w;
  }
  return ENDED_REASONS[0];
}

/** Calls planned and written per transaction: memory stays flat at any count, and each commit is a few MB. */
const SEED_CHUNK = 20_000;

/**
 * Inserts `count` finished calls spread over the `days` before `now`, across the store's
 * assistants and numbers (inbound ones only on linked numbers), a transaction per SEED_CHUNK.
 * They are made in creation order, so the indexes grow at their ends and nothing is sorted: the
 * draws that place them in time are the order statistics of `count` uniform draws, taken from
 * the largest down (the largest of k is U^(1/k); the rest are uniform below it).
 */
function insertSyntheticCalls(store: SeedTarget, count: number, now = Date.now(), days = 30): number {
  const assistants = store.listAssistants();
  const numbers = store.listPhoneNumbers();
  if (assistants.length === 0 || numbers.length === 0) throw new Error('seedCalls needs at least one assistant and one phone number');
  const scripts = new Map(assistants.map((a) => [a.id, new CallScript(a.body, store.knowledge(a.body))]));
  const byId = new Map(assistants.map((a) => [a.id, a]));
  const linked = numbers.filter((n) => n.assistantId && byId.has(n.assistantId));
  const names = FIRST.flatMap((f) => LAST.map((l) => `${f} ${l}`));
  const rand = mulberry32(count * 7919 + store.countFiles());
  let added = 0;
  let u = 1;
  let chunk: CallRow[] = [];
  for (let left = count; left > 0; left--) {
    u *= Math.pow(1 - rand(), 1 / left); // 1 − rand() is never 0, which would pin every later call to the oldest moment
    const inbound = linked.length > 0 && rand() < 0.55;
    const number = inbound ? linked[Math.floor(rand() * linked.length)] : numbers[Math.floor(rand() * numbers.length)];
    const assistant = inbound ? byId.get(number.assistantId!)! : assistants[Math.floor(rand() * assistants.length)];
    const name = names[Math.floor(rand() * names.length)];
    // Call volume leans towards recent days.
    const ago = Math.floor(Math.pow(u, 1.3) * days * DAY);
    chunk.push(
      planCall({
        type: inbound ? 'inboundPhoneCall' : 'outboundPhoneCall',
        assistantId: assistant.id,
        phoneNumberId: number.id,
        script: scripts.get(assistant.id)!,
        customer: { number: `+1${Math.floor(2_000_000_000 + rand() * 7_999_999_999)}`, name: rand() < 0.85 ? name : undefined },
        createdAt: now - ago - 15 * 60_000,
        pace: 1000,
        endedReason: pickReason(rand()),
        talkSeconds: 20 + Math.floor(rand() * 580),
      }),
    );
    if (chunk.length === SEED_CHUNK || left === 1) {
      added += store.insertCalls(chunk);
      chunk = [];
    }
  }
  return added;
}

/**
 * Inserts `count` synthetic past calls (a transaction per SEED_CHUNK) into a data dir or an open database.
 * `now` and `days` place them: created in the `days` before `now`, less 15 minutes (each ends
 * by then), as the seed's are; the default is the month before now.
 */
export function seedCalls(target: string | Db, count: number, at: { now?: number; days?: number } = {}): number {
  if (typeof target !== 'string') {
    const dataDir = dirname(target.location() ?? '');
    return insertSyntheticCalls(dataDirTarget(new SandboxStore(target), dataDir), count, at.now, at.days);
  }
  if (!existsSync(dataPaths(target).db)) throw new Error(`no sandbox data in ${target}; start the sandbox once to create it`);
  const { db } = openDatabase(target);
  try {
    return insertSyntheticCalls(dataDirTarget(new SandboxStore(db), target), count, at.now, at.days);
  } finally {
    db.close();
  }
}
