// Running scenarios: each in a new chat session (POST /sessions, then POST /chats per turn),
// through the shared client; expectations checked per turn; --repeat, --concurrency, --bail and
// snapshots. Used by `switchboard test` and by the console's `:test`.
import type { VoiceAgentApi } from '../api/contract.js';
import { failure } from '../api/errors.js';
import type { Assistant, Chat } from '../api/schemas.js';
import { replyText } from '../api/reply.js';
import { unreadNote } from '../api/envelope.js';
import { readSnapshots, writeSnapshots, type Snapshots } from './files.js';
import { MATCH_BUDGET_MS, matchWithin } from './pattern.js';
import { ScenarioError, type Expect, type Scenario, type ScenarioFile } from './scenario.js';

export interface TurnResult {
  user: string;
  expect?: Expect;
  reply?: string;
  latencyMs?: number;
  cost?: number;
  /** The expectations this reply broke, in the user's words ("contains \"30 days\""). */
  failures: string[];
  /** The request failed (the service's error line). */
  error?: string;
}

export interface RunResult {
  passed: boolean;
  turns: TurnResult[];
  durationMs: number;
  sessionId?: string;
  /** Creating the session failed. */
  error?: string;
}

type ScenarioStatus = 'passed' | 'failed' | 'flaky' | 'skipped';

export interface ScenarioResult {
  scenario: Scenario;
  status: ScenarioStatus;
  /** One per repeat, in order. */
  runs: RunResult[];
  /** Turn indexes whose reply was not the same in every run. */
  variedTurns: number[];
}

export interface TestReport {
  results: ScenarioResult[];
  durationMs: number;
  /** Snapshot files written (--update-snapshots). */
  snapshotsWritten: string[];
  counts: Record<ScenarioStatus, number>;
}

export interface RunOptions {
  /** Only scenarios whose name matches. */
  grep?: RegExp;
  repeat?: number;
  concurrency?: number;
  bail?: boolean;
  updateSnapshots?: boolean;
  signal?: AbortSignal;
  /** Called as each scenario finishes all its runs. */
  onResult?: (r: ScenarioResult) => void;
}

/** The scenarios to run, in file order, after --grep. */
export function selectScenarios(files: readonly ScenarioFile[], grep?: RegExp): Scenario[] {
  return files.flatMap((f) => f.scenarios).filter((s) => !grep || grep.test(s.name));
}

/**
 * Assistant ids for the scenarios' `assistant` values (an id, or an exact name), with one
 * GET /assistants. An unknown or ambiguous name is a ScenarioError naming where it is written.
 */
async function resolveAssistants(api: VoiceAgentApi, scenarios: readonly Scenario[], signal?: AbortSignal): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (scenarios.length === 0) return out;
  const assistants: Assistant[] = await api.listAssistants({ signal });
  for (const s of scenarios) {
    if (out.has(s.assistant)) continue;
    const byId = assistants.find((a) => a.id === s.assistant);
    if (byId) {
      out.set(s.assistant, byId.id);
      continue;
    }
    const byName = assistants.filter((a) => a.name === s.assistant);
    if (byName.length === 1) out.set(s.assistant, byName[0].id);
    else if (byName.length > 1)
      throw new ScenarioError(
        s.file,
        s.assistantAt,
        `${byName.length} assistants are named "${s.assistant}"; use one's id (${byName.map((a) => a.id).join(', ')})`,
      );
    else throw new ScenarioError(s.file, s.assistantAt, `no assistant has the id or the exact name "${s.assistant}" (switchboard assistants list shows them)`);
  }
  return out;
}

const lower = (s: string) => s.toLowerCase();
const quote = (s: string) => JSON.stringify(s);

/** The expectations `reply` breaks. */
export function checkTurn(expect: Expect | undefined, got: { reply: string; latencyMs: number; cost?: number }, stored?: string): string[] {
  if (!expect) return [];
  const out: string[] = [];
  const reply = lower(got.reply);
  for (const c of expect.contains ?? []) if (!reply.includes(lower(c))) out.push(`contains ${quote(c)}`);
  for (const c of expect.notContains ?? []) if (reply.includes(lower(c))) out.push(`notContains ${quote(c)}`);
  if (expect.matches !== undefined) {
    const matched = matchWithin(expect.matches, got.reply);
    if (matched === 'timeout')
      out.push(`matches /${expect.matches}/i (gave up after ${MATCH_BUDGET_MS} ms: the pattern backtracks too much on this reply; simplify it)`);
    else if (!matched) out.push(`matches /${expect.matches}/i`);
  }
  if (expect.maxLatencyMs !== undefined && got.latencyMs > expect.maxLatencyMs)
    out.push(`maxLatencyMs ${expect.maxLatencyMs} (took ${Math.round(got.latencyMs)} ms)`);
  if (expect.maxCost !== undefined) {
    if (got.cost === undefined) out.push(`maxCost ${expect.maxCost} (the service reported no cost)`);
    else if (got.cost > expect.maxCost) out.push(`maxCost ${expect.maxCost} (cost ${got.cost})`);
  }
  if (expect.snapshot) {
    if (stored === undefined) out.push('snapshot (none stored yet: run with --update-snapshots)');
    else if (stored !== got.reply) out.push(`snapshot (stored: ${quote(stored)})`);
  }
  return out;
}

class AuthRefused extends Error {
  constructor(readonly original: unknown) {
    super('auth');
  }
}

async function runOnce(
  api: VoiceAgentApi,
  s: Scenario,
  assistantId: string,
  stored: Snapshots[string] | undefined,
  opts: { updateSnapshots?: boolean; signal?: AbortSignal },
): Promise<RunResult> {
  const started = performance.now();
  const turns: TurnResult[] = [];
  const fail = (err: unknown) => {
    if (failure(err).kind === 'auth') throw new AuthRefused(err);
    const f = failure(err);
    return f.hint ? `${f.message} (${f.hint})` : f.message;
  };
  let sessionId: string;
  try {
    const name = `switchboard test: ${s.name}`.slice(0, 200);
    const created = await api.createSession({ assistantId, name }, { signal: opts.signal });
    if (!created.record) {
      const said = created.unread ? unreadNote('the session was started', created.unread) : 'the session was started';
      return { passed: false, turns, durationMs: performance.now() - started, error: `${said}; without its id the conversation cannot be run` };
    }
    sessionId = created.record.id;
  } catch (err) {
    return { passed: false, turns, durationMs: performance.now() - started, error: fail(err) };
  }
  const variableValues = s.variables && Object.keys(s.variables).length ? s.variables : undefined;
  for (const [i, t] of s.turns.entries()) {
    const t0 = performance.now();
    let chat: Chat;
    try {
      const sent = await api.sendChat({ sessionId, input: t.user, ...(variableValues ? { variableValues } : {}) }, { signal: opts.signal });
      if (!sent.record) {
        const said = sent.unread ? unreadNote('the message was sent', sent.unread) : 'the message was sent';
        turns.push({ user: t.user, expect: t.expect, failures: [], error: `${said}; its reply could not be read, so it cannot be checked` });
        break;
      }
      chat = sent.record;
    } catch (err) {
      turns.push({ user: t.user, expect: t.expect, failures: [], error: fail(err) });
      break; // the rest of the conversation would not be the one written
    }
    const latencyMs = performance.now() - t0;
    const reply = replyText(chat);
    const cost = typeof chat.cost === 'number' ? chat.cost : undefined;
    const expect = opts.updateSnapshots && t.expect?.snapshot ? { ...t.expect, snapshot: false } : t.expect;
    turns.push({ user: t.user, expect: t.expect, reply, latencyMs, cost, failures: checkTurn(expect, { reply, latencyMs, cost }, stored?.[i]?.reply) });
  }
  const passed = turns.length === s.turns.length && turns.every((t) => !t.error && t.failures.length === 0);
  return { passed, turns, durationMs: performance.now() - started, sessionId };
}

function statusOf(runs: RunResult[]): ScenarioStatus {
  const passed = runs.filter((r) => r.passed).length;
  if (runs.length === 0) return 'skipped';
  if (passed === runs.length) return 'passed';
  return passed === 0 ? 'failed' : 'flaky';
}

function variedTurns(runs: RunResult[]): number[] {
  const out: number[] = [];
  const n = Math.max(0, ...runs.map((r) => r.turns.length));
  for (let i = 0; i < n; i++) {
    const replies = new Set(runs.map((r) => r.turns[i]?.reply).filter((x) => x !== undefined));
    if (replies.size > 1) out.push(i);
  }
  return out;
}

/**
 * Runs the scenarios of `files` (after --grep), each `repeat` times, at most `concurrency` at
 * once. A refused key stops everything and is thrown (the caller's exit 4); any other failed
 * request fails its scenario only. Unknown assistants are thrown before anything is sent.
 */
export async function runScenarios(api: VoiceAgentApi, files: readonly ScenarioFile[], opts: RunOptions = {}): Promise<TestReport> {
  const started = performance.now();
  const repeat = Math.max(1, opts.repeat ?? 1);
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const scenarios = selectScenarios(files, opts.grep);
  const ids = await resolveAssistants(api, scenarios, opts.signal);
  const snapshots = new Map<string, Snapshots>();
  for (const file of new Set(scenarios.map((s) => s.file))) snapshots.set(file, opts.updateSnapshots ? {} : readSnapshots(file));

  const runs: RunResult[][] = scenarios.map(() => []);
  const jobs = scenarios.flatMap((_, si) => Array.from({ length: repeat }, () => si));
  const left = scenarios.map(() => repeat);
  const results: (ScenarioResult | undefined)[] = scenarios.map(() => undefined);
  let next = 0;
  let stop = false;
  let refused: unknown;
  const finish = (si: number) => {
    const r: ScenarioResult = { scenario: scenarios[si], status: statusOf(runs[si]), runs: runs[si], variedTurns: variedTurns(runs[si]) };
    results[si] = r;
    opts.onResult?.(r);
  };
  const worker = async () => {
    while (!stop && !opts.signal?.aborted && next < jobs.length) {
      const si = jobs[next++];
      const s = scenarios[si];
      try {
        const r = await runOnce(api, s, ids.get(s.assistant)!, snapshots.get(s.file)?.[s.name], opts);
        runs[si].push(r);
        if (!r.passed && opts.bail) stop = true;
      } catch (err) {
        stop = true;
        refused = err instanceof AuthRefused ? err.original : err;
        return;
      }
      if (--left[si] === 0) finish(si);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  if (refused !== undefined) throw refused;
  // Scenarios --bail left unfinished: what ran is reported, the rest as skipped.
  scenarios.forEach((_, si) => results[si] ?? finish(si));

  const snapshotsWritten: string[] = [];
  if (opts.updateSnapshots) {
    for (const file of new Set(scenarios.map((s) => s.file))) {
      const update: Snapshots = {};
      scenarios.forEach((s, si) => {
        const first = runs[si].find((r) => r.turns.length === s.turns.length && r.turns.every((t) => t.reply !== undefined));
        if (s.file === file && first) update[s.name] = first.turns.map((t) => ({ user: t.user, reply: t.reply! }));
      });
      if (Object.keys(update).length) snapshotsWritten.push(writeSnapshots(file, update));
    }
  }
  const done = results as ScenarioResult[];
  const counts: Record<ScenarioStatus, number> = { passed: 0, failed: 0, flaky: 0, skipped: 0 };
  for (const r of done) counts[r.status]++;
  return { results: done, durationMs: performance.now() - started, snapshotsWritten, counts };
}

/** 0 when every scenario passed (and at least one ran), else 1 — the command's exit code. */
export function reportPassed(report: TestReport): boolean {
  return report.counts.failed === 0 && report.counts.flaky === 0 && report.counts.skipped === 0;
}
