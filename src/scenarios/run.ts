// Running scenarios: each in a new chat session (POST /sessions, then POST /chats per turn),
// through the shared client; expectations checked per turn; a simulated caller after the scripted
// turns and judges over the transcript (evals.ts); samples and pass rates, --concurrency, --bail,
// --max-cost and snapshots. Used by `switchboard test` and by the console's `:test`.
import type { VoiceAgentApi } from '../api/contract.js';
import { failure } from '../api/errors.js';
import type { Assistant, Chat } from '../api/schemas.js';
import { replyText } from '../api/reply.js';
import { unreadNote } from '../api/envelope.js';
import { readSnapshots, writeSnapshots, type Snapshots } from './files.js';
import { MATCH_BUDGET_MS, matchWithin } from './pattern.js';
import { ScenarioError, type Expect, type Judge, type Scenario, type ScenarioFile } from './scenario.js';
import type { Regression } from './baseline.js';
import { callerPrompt, HelperAssistants, JUDGE_AGAIN, JUDGE_PROMPT, judgeInput, parseVerdict, percentile, type Line } from './evals.js';

/** A judge's passing score when the rubric names none. */
const DEFAULT_THRESHOLD = 0.7;

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
  /** The user line came from the simulated caller. */
  simulated?: boolean;
}

export interface JudgeResult {
  rubric: string;
  threshold: number;
  score?: number;
  reason?: string;
  /** The judge could not be asked, or answered no verdict twice: never a pass. */
  error?: string;
  passed: boolean;
}

export interface RunResult {
  passed: boolean;
  turns: TurnResult[];
  judges?: JudgeResult[];
  /** Why a simulated conversation ended: `stopWhen` matched, or maxTurns. */
  ended?: string;
  /** What this sample's chats cost, its caller's and judges' included, as the service reported it. */
  cost: number;
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
  /** Samples that passed, over the samples run. */
  passRate: number;
  /** Latency per turn over the samples, p50 and p95 in ms (undefined where no reply came). */
  latency: { p50?: number; p95?: number }[];
}

export interface TestReport {
  results: ScenarioResult[];
  durationMs: number;
  /** Snapshot files written (--update-snapshots). */
  snapshotsWritten: string[];
  counts: Record<ScenarioStatus, number>;
  /** The pass rate a scenario needed (--pass-rate); undefined: all samples, and a mixed result is flaky. */
  passRate?: number;
  /** Caller and judge assistants this run created on the target. */
  helpersCreated: { id: string; name: string }[];
  /** Everything the run's chats cost, as the service reported it. */
  cost: number;
  /** Set when --max-cost stopped the run. */
  stoppedAt?: string;
  /** Set by --baseline: the earlier report and what got worse since. */
  baseline?: { file: string; regressions: Regression[] };
}

/** What a run will start, for the line printed before a live run. */
export function planOf(scenarios: readonly Scenario[], samples: number): { sessions: number; chats: number } {
  let sessions = 0;
  let chats = 0;
  for (const s of scenarios) {
    const judges = s.judge?.length ?? 0;
    sessions += samples * (1 + (s.simulate ? 1 : 0) + judges);
    chats += samples * ((s.turns?.length ?? 0) + (s.simulate ? 2 * s.simulate.maxTurns : 0) + 2 * judges);
  }
  return { sessions, chats };
}

export interface RunOptions {
  /** Only scenarios whose name matches. */
  grep?: RegExp;
  /** Samples per scenario (--samples / --repeat). */
  repeat?: number;
  /** A scenario passes when at least this share of its samples pass (0..1). */
  passRate?: number;
  /** Stop starting chats once the run's chats cost this much. */
  maxCost?: number;
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
async function resolveAssistants(
  api: VoiceAgentApi,
  scenarios: readonly Scenario[],
  signal?: AbortSignal,
): Promise<{ ids: Map<string, string>; assistants: Assistant[] }> {
  const out = new Map<string, string>();
  if (scenarios.length === 0) return { ids: out, assistants: [] };
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
  return { ids: out, assistants };
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

/** Thrown when --max-cost is spent: the sample stops, and no other starts. */
class BudgetSpent extends Error {}

/** What the samples of one run share: the helpers, the money spent and its limit. */
interface RunContext {
  api: VoiceAgentApi;
  helpers: HelperAssistants;
  assistants: readonly Assistant[];
  spent: { cost: number };
  maxCost?: number;
  signal?: AbortSignal;
  updateSnapshots?: boolean;
}

/** One chat session: start it, then send lines and read replies, counting the cost. */
async function openSession(ctx: RunContext, assistantId: string, name: string, run: { cost: number }) {
  const created = await ctx.api.createSession({ assistantId, name: name.slice(0, 200) }, { signal: ctx.signal });
  if (!created.record) {
    const said = created.unread ? unreadNote('the session was started', created.unread) : 'the session was started';
    throw new Error(`${said}; without its id the conversation cannot be run`);
  }
  const sessionId = created.record.id;
  return {
    sessionId,
    async send(input: string, variableValues?: Record<string, unknown>): Promise<{ chat?: Chat; unread?: string; cost?: number }> {
      if (ctx.maxCost !== undefined && ctx.spent.cost >= ctx.maxCost) throw new BudgetSpent();
      const sent = await ctx.api.sendChat({ sessionId, input, ...(variableValues ? { variableValues } : {}) }, { signal: ctx.signal });
      if (!sent.record) return { unread: sent.unread ? unreadNote('the message was sent', sent.unread) : 'the message was sent' };
      const cost = typeof sent.record.cost === 'number' ? sent.record.cost : undefined;
      if (cost !== undefined) {
        ctx.spent.cost += cost;
        run.cost += cost;
      }
      return { chat: sent.record, cost };
    },
  };
}

async function runOnce(ctx: RunContext, s: Scenario, assistantId: string, stored: Snapshots[string] | undefined): Promise<RunResult> {
  const started = performance.now();
  const turns: TurnResult[] = [];
  const run = { cost: 0 };
  const done = (fields: Partial<RunResult>): RunResult => ({ passed: false, turns, durationMs: performance.now() - started, cost: run.cost, ...fields });
  const fail = (err: unknown) => {
    if (err instanceof BudgetSpent) throw err;
    if (failure(err).kind === 'auth') throw new AuthRefused(err);
    const f = failure(err);
    return f.hint ? `${f.message} (${f.hint})` : f.message;
  };
  let session: Awaited<ReturnType<typeof openSession>>;
  try {
    session = await openSession(ctx, assistantId, `switchboard test: ${s.name}`, run);
  } catch (err) {
    if (err instanceof BudgetSpent) return done({ error: `not started: --max-cost ${ctx.maxCost} was spent` });
    return done({ error: fail(err) });
  }
  const sessionId = session.sessionId;
  /** The scenario's variables, with a scripted turn's own over them. */
  const variablesOf = (own: Scenario['variables']) => {
    const all = { ...s.variables, ...own };
    return Object.keys(all).length ? all : undefined;
  };
  /** Sends one user line; false when the conversation cannot go on. */
  const turn = async (user: string, expect: Expect | undefined, i: number, simulated: boolean, own?: Scenario['variables']): Promise<boolean> => {
    const t0 = performance.now();
    const base = { user, expect, ...(simulated ? { simulated } : {}) };
    let sent;
    try {
      sent = await session.send(user, variablesOf(own));
    } catch (err) {
      turns.push({ ...base, failures: [], error: fail(err) });
      return false; // the rest of the conversation would not be the one written
    }
    if (!sent.chat) {
      turns.push({ ...base, failures: [], error: `${sent.unread}; its reply could not be read, so it cannot be checked` });
      return false;
    }
    const latencyMs = performance.now() - t0;
    const reply = replyText(sent.chat);
    const checked = ctx.updateSnapshots && expect?.snapshot ? { ...expect, snapshot: false } : expect;
    turns.push({ ...base, reply, latencyMs, cost: sent.cost, failures: checkTurn(checked, { reply, latencyMs, cost: sent.cost }, stored?.[i]?.reply) });
    return true;
  };
  const scripted = s.turns ?? [];
  let ok = true;
  let ended: string | undefined;
  try {
    for (const [i, t] of scripted.entries()) if (!(ok = await turn(t.user, t.expect, i, false, t.variables))) break;
    if (ok && s.simulate) ended = await simulate(ctx, s, assistantId, run, turns, (line, i) => turn(line, undefined, i, true));
  } catch (err) {
    if (!(err instanceof BudgetSpent)) throw err;
    return done({ sessionId, error: `not finished: --max-cost ${ctx.maxCost} was spent` });
  }
  if (ended?.startsWith('caller: ')) return done({ sessionId, error: ended.slice('caller: '.length) });
  const complete = turns.length >= scripted.length && turns.every((t) => !t.error && t.failures.length === 0);
  let judges: JudgeResult[] | undefined;
  if (s.judge) {
    try {
      judges = complete ? await judgeAll(ctx, s, assistantId, run, turns) : undefined;
    } catch (err) {
      if (!(err instanceof BudgetSpent)) throw err;
      return done({ sessionId, error: `not judged: --max-cost ${ctx.maxCost} was spent` });
    }
  }
  const passed = complete && (judges ?? []).every((j) => j.passed);
  return done({ passed, sessionId, ...(judges ? { judges } : {}), ...(ended ? { ended } : {}) });
}

const stopMatches = (stopWhen: string | undefined, text: string) => stopWhen !== undefined && matchWithin(stopWhen, text) === true;

/**
 * The simulated caller: its own session, whose replies are the next lines sent to the assistant
 * under test, until maxTurns lines were sent or either side says `stopWhen`. Returns why it ended,
 * or "caller: …" when the caller could not be asked.
 */
async function simulate(
  ctx: RunContext,
  s: Scenario,
  assistantId: string,
  run: { cost: number },
  turns: TurnResult[],
  say: (line: string, i: number) => Promise<boolean>,
): Promise<string> {
  const sim = s.simulate!;
  const like = ctx.assistants.find((a) => a.id === assistantId);
  let caller;
  try {
    const id = await ctx.helpers.id('caller', callerPrompt(sim.persona), like, ctx.signal);
    caller = await openSession(ctx, id, `switchboard test caller: ${s.name}`, run);
  } catch (err) {
    if (err instanceof BudgetSpent) throw err;
    if (failure(err).kind === 'auth') throw new AuthRefused(err);
    return `caller: the simulated caller could not be started: ${failure(err).message}`;
  }
  // The caller hears what the assistant said last (its greeting is the call connecting).
  let heard = turns.at(-1)?.reply ?? '(the call connects)';
  for (let n = 0; n < sim.maxTurns; n++) {
    let line: string;
    try {
      const r = await caller.send(heard);
      if (!r.chat) return `caller: the simulated caller's line could not be read: ${r.unread}`;
      line = replyText(r.chat).trim();
    } catch (err) {
      if (err instanceof BudgetSpent) throw err;
      if (failure(err).kind === 'auth') throw new AuthRefused(err);
      return `caller: the simulated caller did not answer: ${failure(err).message}`;
    }
    if (!(await say(line, turns.length))) return 'a request failed';
    if (stopMatches(sim.stopWhen, line)) return `the caller said stopWhen after ${n + 1} line${n ? 's' : ''}`;
    heard = turns.at(-1)!.reply!;
    if (stopMatches(sim.stopWhen, heard)) return `the assistant said stopWhen after ${n + 1} line${n ? 's' : ''}`;
  }
  return `maxTurns (${sim.maxTurns}) reached`;
}

function transcriptOf(turns: readonly TurnResult[]): Line[] {
  return turns.flatMap((t) => [{ role: 'caller', text: t.user } as Line, ...(t.reply === undefined ? [] : [{ role: 'assistant', text: t.reply } as Line])]);
}

/** Each rubric in its own judge session; an answer without a verdict is asked again once, then is a judge error. */
async function judgeAll(ctx: RunContext, s: Scenario, assistantId: string, run: { cost: number }, turns: readonly TurnResult[]): Promise<JudgeResult[]> {
  const like = ctx.assistants.find((a) => a.id === assistantId);
  const transcript = transcriptOf(turns);
  const one = async (j: Judge): Promise<JudgeResult> => {
    const threshold = j.threshold ?? DEFAULT_THRESHOLD;
    const base = { rubric: j.rubric, threshold, passed: false };
    try {
      const id = await ctx.helpers.id('judge', JUDGE_PROMPT, like, ctx.signal);
      const session = await openSession(ctx, id, `switchboard test judge: ${s.name}`, run);
      let answer = '';
      for (const input of [judgeInput(j.rubric, transcript), JUDGE_AGAIN]) {
        const r = await session.send(input);
        answer = r.chat ? replyText(r.chat) : '';
        const verdict = parseVerdict(answer);
        if (verdict) return { ...base, score: verdict.score, reason: verdict.reason, passed: verdict.score >= threshold };
      }
      const shown = answer.length > 120 ? `${answer.slice(0, 117)}…` : answer;
      return { ...base, error: `the judge answered no JSON verdict twice (last: ${JSON.stringify(shown)})` };
    } catch (err) {
      if (err instanceof BudgetSpent) throw err;
      if (failure(err).kind === 'auth') throw new AuthRefused(err);
      return { ...base, error: `the judge could not be asked: ${failure(err).message}` };
    }
  };
  const out: JudgeResult[] = [];
  for (const j of s.judge ?? []) out.push(await one(j));
  return out;
}

function statusOf(runs: RunResult[], passRate?: number): ScenarioStatus {
  const passed = runs.filter((r) => r.passed).length;
  if (runs.length === 0) return 'skipped';
  if (passRate !== undefined) return passed / runs.length >= passRate - 1e-9 ? 'passed' : 'failed';
  if (passed === runs.length) return 'passed';
  return passed === 0 ? 'failed' : 'flaky';
}

function latencyPerTurn(runs: RunResult[]): { p50?: number; p95?: number }[] {
  const n = Math.max(0, ...runs.map((r) => r.turns.length));
  return Array.from({ length: n }, (_, i) => {
    const ms = runs.map((r) => r.turns[i]?.latencyMs).filter((x): x is number => x !== undefined);
    return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
  });
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
  const { ids, assistants } = await resolveAssistants(api, scenarios, opts.signal);
  const ctx: RunContext = {
    api,
    helpers: new HelperAssistants(api, assistants),
    assistants,
    spent: { cost: 0 },
    maxCost: opts.maxCost,
    signal: opts.signal,
    updateSnapshots: opts.updateSnapshots,
  };
  const snapshots = new Map<string, Snapshots>();
  for (const file of new Set(scenarios.map((s) => s.file))) snapshots.set(file, opts.updateSnapshots ? {} : readSnapshots(file));

  const runs: RunResult[][] = scenarios.map(() => []);
  const jobs = scenarios.flatMap((_, si) => Array.from({ length: repeat }, () => si));
  const left = scenarios.map(() => repeat);
  const results: (ScenarioResult | undefined)[] = scenarios.map(() => undefined);
  let next = 0;
  let stop = false;
  let stoppedByCost = false;
  let refused: unknown;
  const finish = (si: number) => {
    const rs = runs[si];
    const r: ScenarioResult = {
      scenario: scenarios[si],
      status: statusOf(rs, opts.passRate),
      runs: rs,
      variedTurns: variedTurns(rs),
      passRate: rs.length ? rs.filter((x) => x.passed).length / rs.length : 0,
      latency: latencyPerTurn(rs),
    };
    results[si] = r;
    opts.onResult?.(r);
  };
  const worker = async () => {
    while (!stop && !opts.signal?.aborted && next < jobs.length) {
      const si = jobs[next++];
      const s = scenarios[si];
      try {
        const r = await runOnce(ctx, s, ids.get(s.assistant)!, snapshots.get(s.file)?.[s.name]);
        runs[si].push(r);
        if (!r.passed && opts.bail) stop = true;
        if (ctx.maxCost !== undefined && ctx.spent.cost >= ctx.maxCost) stop = stoppedByCost = true;
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
        const scripted = s.turns?.length ?? 0;
        const first = runs[si].find((r) => r.turns.length >= scripted && r.turns.slice(0, scripted).every((t) => t.reply !== undefined));
        if (s.file === file && first && scripted) update[s.name] = first.turns.slice(0, scripted).map((t) => ({ user: t.user, reply: t.reply! }));
      });
      if (Object.keys(update).length) snapshotsWritten.push(writeSnapshots(file, update));
    }
  }
  const done = results as ScenarioResult[];
  const counts: Record<ScenarioStatus, number> = { passed: 0, failed: 0, flaky: 0, skipped: 0 };
  for (const r of done) counts[r.status]++;
  return {
    results: done,
    durationMs: performance.now() - started,
    snapshotsWritten,
    counts,
    ...(opts.passRate !== undefined ? { passRate: opts.passRate } : {}),
    helpersCreated: ctx.helpers.created,
    cost: Math.round(ctx.spent.cost * 1e6) / 1e6,
    ...(stoppedByCost ? { stoppedAt: `--max-cost ${opts.maxCost}: spent ${Math.round(ctx.spent.cost * 1e6) / 1e6}` } : {}),
  };
}

/** 0 when every scenario passed (and at least one ran), else 1 — the command's exit code. */
export function reportPassed(report: TestReport): boolean {
  return report.counts.failed === 0 && report.counts.flaky === 0 && report.counts.skipped === 0;
}
