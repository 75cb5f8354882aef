// switchboard archive status | sync | clear, and the call-log commands that read the archive:
// calls search | stats | export (registered on `calls` by calls.ts). The archive itself is
// src/archive/; this file is flags and output.
import { createWriteStream, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { CallArchive, CallQuery, SearchHit, Stats, StatsBy, StatsRow, SyncProgress, SyncResult } from '../archive/index.js';
import type { Call } from '../api/schemas.js';
import type { VoiceAgentApi } from '../api/contract.js';
import { resolvedFlags } from './resolve.js';
import { callCost, callDuration, viewCall } from '../api/records.js';
import { cellText, type Column } from '../format/column.js';
import { escapeLine, jsonText, safeJson } from '../format/escape.js';
import { endDate, nonEmpty, positiveIntUpTo, startDate } from './input.js';
import { csvField, listNamesFor, noteMore, printList, toCsv, toFieldList, toTable, type ListNames, type OutputTarget } from './output.js';
import type { Target } from '../target.js';
import { CommandFailed, UsageError, action, addSecret, globalsOf, outputFor, refuseWhenReadOnly, withApi, writeErr, type Globals } from './runtime.js';
import { confirm } from './files.js';
import { grouped } from '../format/words.js';
import { io } from './io.js';

interface ArchiveFlags {
  assistant?: string;
  number?: string;
  after?: string;
  before?: string;
  offline?: boolean;
  complete?: boolean;
}

interface Opened {
  archive: CallArchive;
  out: OutputTarget;
  target: Target;
  /** The connection the archive was synced over; none --offline. */
  api?: VoiceAgentApi;
}

/**
 * Opens the profile's archive and, unless --offline, syncs it first (progress on a terminal's
 * stderr). Offline needs no connection: only the profile's name and service are read. A command
 * that only reads (`reads`) opens, offline, an archive this user cannot write read-only.
 */
export async function withArchive<T>(cmd: Command, offline: boolean, fn: (o: Opened) => Promise<T> | T, reads = true, complete = false): Promise<T> {
  const { openArchiveFor, openArchiveToRead, ArchiveUnreadable, isUnreadableDb } = await import('../archive/index.js');
  // A page damaged past the first one shows only when a query reads it: named like a file that cannot be opened.
  const named = (archive: CallArchive, err: unknown) => (isUnreadableDb(err) ? new ArchiveUnreadable(archive.path, err) : err);
  if (offline) {
    const globals = globalsOf(cmd);
    const { resolveTarget } = await import('../config/config.js');
    const target = resolveTarget({ profile: globals.profile, env: process.env });
    addSecret(target.apiKey);
    const archive = reads ? openArchiveToRead(target, process.env, upgradeProgress()) : openArchiveFor(target, process.env, upgradeProgress());
    try {
      return await fn({ archive, out: outputFor(globals), target });
    } catch (err) {
      throw named(archive, err);
    } finally {
      archive.close();
    }
  }
  return withApi(cmd, async ({ api, target, out }) => {
    const archive = openArchiveFor(target, process.env, upgradeProgress());
    try {
      // Without --complete a history still being filled is not waited for: new calls only, and what the archive covers said.
      const history = complete || archive.complete() ? {} : { backfill: false, wait: false };
      let r: SyncResult;
      try {
        r = await syncWithProgress(archive, api, { ...history, concurrency: target.syncConcurrency });
      } catch (err) {
        throw new CommandFailed('sync the call archive first (--offline reads what it holds without syncing)', named(archive, err));
      }
      if (!r.complete && !archive.complete()) writeErr(`note: ${coverageLine(archive, r.busy ? archive.status().syncing?.pid : undefined)}`);
      try {
        return await fn({ archive, out, target, api });
      } catch (err) {
        throw named(archive, err);
      }
    } finally {
      archive.close();
    }
  });
}

const count = grouped;

/**
 * What opening an archive written by an earlier version does while it indexes its calls again:
 * a line on stderr that counts up on a terminal; elsewhere one line when it starts and one when done.
 */
function upgradeProgress(): (done: number, total: number) => void {
  const tty = io().stderr.isTTY === true;
  const line = (done: number, total: number) => `indexing the call archive again for this version's search: ${count(done)} of ${count(total)} calls`;
  return (done, total) => {
    if (tty) io().stderr.write(`\r\u001b[2K${line(done, total)}${done >= total ? '\n' : ''}`);
    else if (done === 0 || done >= total) io().stderr.write(`${line(done, total)}\n`);
  };
}

/** "history back to 2026-03-02, about 40% of the log; --complete waits for all of it" (and who is filling it, when another process is). */
function coverageLine(archive: CallArchive, holder: number | undefined): string {
  const c = archive.coverage();
  const back = c.back ? `history back to ${escapeLine(c.back.slice(0, 10))}` : 'history not yet read';
  const share = c.share === undefined ? '' : `, about ${Math.min(99, Math.floor(c.share * 100))}% of the log`;
  const who = holder === undefined ? '' : ` (another sync, pid ${holder}, is filling it)`;
  return `${back}${share}${who}; --complete waits for all of it`;
}

/** What a back-fill's progress says: calls so far, calls per second, how far back, the time left. */
interface SyncFigures {
  held: number;
  callsPerSecond: number;
  reachedBack?: string;
  /** seconds left, estimated once the oldest call is found */
  etaSeconds?: number;
}

/** Syncs, drawing one progress line on stderr when it is a terminal. */
async function syncWithProgress(
  archive: CallArchive,
  api: Parameters<CallArchive['sync']>[0],
  opts: { backfill?: boolean; wait?: boolean; concurrency?: number; figures?: SyncFigures } = {},
): Promise<SyncResult> {
  const tty = io().stderr.isTTY === true;
  let drawn = false;
  const started = performance.now();
  let first: number | undefined;
  const figures = opts.figures;
  const onProgress = (p: SyncProgress) => {
    first ??= p.held - p.added;
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? (p.held - first) / seconds : 0;
    const f: SyncFigures = {
      held: p.held,
      callsPerSecond: Math.round(rate),
      ...(p.reachedBack ? { reachedBack: p.reachedBack } : {}),
      ...(p.remaining !== undefined && rate > 0 ? { etaSeconds: Math.round(p.remaining / rate) } : {}),
    };
    if (figures) Object.assign(figures, f);
    if (!tty) return;
    drawn = true;
    io().stderr.write(`\r\u001b[2K${progressLine(p, f)}`);
  };
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  let r: SyncResult;
  try {
    r = await archive.sync(api, {
      onProgress,
      signal: stop.signal,
      ...(opts.backfill === false ? { backfill: false } : {}),
      ...(opts.wait === false ? { wait: false } : {}),
      ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    });
  } finally {
    process.off('SIGINT', onSignal);
    if (drawn) io().stderr.write('\r\u001b[2K');
  }
  // How the service had to be read (it ignores the date filters, …): said once, on stderr.
  for (const text of r.notes) writeErr(`note: ${escapeLine(text)}`);
  return r;
}

function progressLine(p: SyncProgress, f: SyncFigures): string {
  switch (p.phase) {
    case 'waiting':
      return `waiting for another sync of this archive (pid ${p.holder?.pid ?? '?'})…`;
    case 'backfill':
      return (
        `syncing the call archive: ${count(p.held)} calls, ${count(f.callsPerSecond)}/s` +
        `${p.reachedBack ? `, back to ${escapeLine(p.reachedBack.slice(0, 10))}` : ''}` +
        `${f.etaSeconds !== undefined ? `, about ${duration(f.etaSeconds)} left` : ''}…`
      );
    case 'unfinished':
      return `syncing the call archive: updating calls still in progress…`;
    default:
      return `syncing the call archive: ${count(p.added)} new calls…`;
  }
}

function duration(seconds: number): string {
  return seconds < 90 ? `${seconds} s` : seconds < 5400 ? `${Math.round(seconds / 60)} min` : `${(seconds / 3600).toFixed(1)} h`;
}

function queryOf(flags: ArchiveFlags): CallQuery {
  return { assistantId: flags.assistant, phoneNumberId: flags.number, after: flags.after, before: flags.before };
}

/** The query, with `--assistant` and `--number` resolved to ids on the service (offline: as given, the archive holds only ids). */
async function resolvedQuery(flags: ArchiveFlags, api: VoiceAgentApi | undefined): Promise<CallQuery> {
  if (!api) return queryOf(flags);
  return queryOf(await resolvedFlags(api, flags));
}

// ---- calls search

const SEARCH_COLUMNS: Column<SearchHit & { id: string }>[] = [
  { header: 'id', value: (h) => h.call.id },
  { header: 'created', value: (h) => h.call.createdAt },
  { header: 'assistant', value: (h) => h.call.assistantId },
  { header: 'customer', value: (h) => [h.call.customer?.number, h.call.customer?.name].filter(Boolean).join(' ') },
  { header: 'status', value: (h) => h.call.status },
  { header: 'snippet', value: (h) => h.snippet },
];

interface SearchFlags extends ArchiveFlags {
  limit: number;
}

/** The hits newest first; -o json: each call's list fields plus its snippet. */
function printSearch(out: OutputTarget, hits: SearchHit[]): void {
  if (out.format === 'json') {
    out.write(
      jsonText(
        hits.map((h) => ({ ...h.call, snippet: h.snippet })),
        2,
      ) + '\n',
    );
    return;
  }
  printList(
    out,
    hits.map((h) => ({ ...h, id: h.call.id })),
    SEARCH_COLUMNS,
  );
}

// ---- calls stats

const BY_FIELD: Record<StatsBy, string> = { day: 'day', assistant: 'assistant', number: 'number', status: 'status', endedReason: 'endedReason', type: 'type' };

/** The latency columns, where some call of the stats carries turn latencies (the platform's performance metrics). */
function latencyColumns(): Column<StatsRow & { id: string; label?: string }>[] {
  return [
    { header: 'p50 turn (ms)', value: (r) => (r.latency ? String(Math.round(r.latency.p50)) : ''), align: 'right' },
    { header: 'p95 turn (ms)', value: (r) => (r.latency ? String(Math.round(r.latency.p95)) : ''), align: 'right' },
  ];
}

function statsColumns(by: StatsBy, latency = false): Column<StatsRow & { id: string; label?: string }>[] {
  return [
    { header: BY_FIELD[by], value: (r) => r.label ?? r.key ?? '(none)' },
    { header: 'calls', value: (r) => r.calls, align: 'right' },
    { header: 'minutes', value: (r) => r.minutes.toFixed(1), align: 'right' },
    { header: 'cost', value: (r) => r.cost.toFixed(2), align: 'right' },
    { header: 'avg duration (s)', value: (r) => r.avgSeconds.toFixed(1), align: 'right' },
    ...(latency ? latencyColumns() : []),
  ];
}

/**
 * The names of the assistants or numbers stats are grouped by: `all` for -o json (the service's
 * lists, or offline the console's cached ones), `shown` for a table on a terminal (listNamesFor).
 */
async function statsNames(by: StatsBy, out: OutputTarget, target: Target, api: VoiceAgentApi | undefined): Promise<{ all?: ListNames; shown?: ListNames }> {
  const shown = await listNamesFor(out, target);
  if (out.format !== 'json' || (by !== 'assistant' && by !== 'number')) return { shown };
  if (!api) return { all: await listNamesFor({ ...out, format: 'table', tty: true, wide: false }, target), shown };
  const index = new Map<string, string>();
  if (by === 'assistant') for (const a of await api.listAssistants()) if (a.name) index.set(a.id, a.name);
  if (by === 'number') for (const n of await api.listPhoneNumbers()) if (n.did) index.set(n.id, n.did);
  const named = (id: string | null | undefined) => (id ? index.get(id) : undefined);
  return { all: { assistant: named, number: named }, shown };
}

function printStats(out: OutputTarget, stats: Stats, given: { all?: ListNames; shown?: ListNames }): void {
  const names = given.shown;
  if (out.format === 'json') {
    const nameOf = stats.by === 'assistant' ? given.all?.assistant : stats.by === 'number' ? given.all?.number : undefined;
    // One object per group: the group key (named after --by; an assistant or number with its name beside), calls, minutes, cost, average duration.
    const rows = stats.groups.map((g) => ({
      [BY_FIELD[stats.by]]: g.key,
      ...(stats.by === 'assistant' || stats.by === 'number' ? { name: nameOf?.(g.key) ?? null } : {}),
      calls: g.calls,
      minutes: g.minutes,
      cost: g.cost,
      avgDurationSeconds: g.avgSeconds,
      ...(g.latency ? { turnLatencyP50Ms: g.latency.p50, turnLatencyP95Ms: g.latency.p95, turns: g.latency.turns } : {}),
    }));
    out.write(jsonText(rows, 2) + '\n');
    return;
  }
  if (out.format === 'ids') throw new UsageError('calls stats prints table, json or csv (-o ids lists records, and stats has none)');
  // On a terminal, an assistant or number is shown by the name the list cache knows it by.
  const named = stats.by === 'assistant' ? names?.assistant : stats.by === 'number' ? names?.number : undefined;
  const rows = [...stats.groups.map((g) => ({ ...g, id: g.key ?? '', label: named?.(g.key) })), { ...stats.total, id: 'total', label: 'total' }];
  const columns = statsColumns(stats.by, stats.total.latency !== undefined);
  if (out.format === 'csv') out.write(toCsv(rows, columns, out.tty));
  else out.write(toTable(rows, columns, out.tty, out.color));
}

// ---- calls export

// A row's columns are read one after another: its view is made once.
let lastView: { call: Call; view: ReturnType<typeof viewCall> } | undefined;
const viewOf = (call: Call) => (lastView?.call === call ? lastView.view : (lastView = { call, view: viewCall(call) }).view);

const EXPORT_COLUMNS: Column<Call>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'createdAt', value: (c) => c.createdAt },
  { header: 'updatedAt', value: (c) => c.updatedAt },
  { header: 'type', value: (c) => c.type },
  { header: 'status', value: (c) => c.status },
  { header: 'assistantId', value: (c) => c.assistantId },
  { header: 'phoneNumberId', value: (c) => c.phoneNumberId },
  { header: 'customerNumber', value: (c) => c.customer?.number },
  { header: 'customerName', value: (c) => c.customer?.name },
  { header: 'startedAt', value: (c) => c.startedAt },
  { header: 'endedAt', value: (c) => c.endedAt },
  { header: 'durationSeconds', value: (c) => callDuration(c) },
  { header: 'cost', value: (c) => callCost(c) },
  { header: 'endedReason', value: (c) => c.endedReason },
  { header: 'summary', value: (c) => viewOf(c).summary },
  { header: 'transcript', value: (c) => viewOf(c).transcript },
];

interface ExportFlags extends ArchiveFlags {
  format: 'ndjson' | 'csv';
  out?: string;
}

/**
 * Streams every matching call to `sink` in batches (constant memory): NDJSON is each record as
 * the service sent it, one per line (the same JSON value, with C1, bidi and line separators as \u
 * escapes); CSV is the columns above, service text escaped as `calls list -o csv` does and
 * formulas neutralised. Either may be read on a terminal.
 * Returns how many calls were written.
 */
async function exportCalls(archive: CallArchive, q: CallQuery, format: 'ndjson' | 'csv', sink: NodeJS.WritableStream): Promise<number> {
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (sink.write(text)) return resolve();
      const onDrain = () => {
        sink.off('error', onError);
        resolve();
      };
      const onError = (err: Error) => {
        sink.off('drain', onDrain);
        reject(err);
      };
      sink.once('drain', onDrain);
      sink.once('error', onError);
    });
  let n = 0;
  let chunk = '';
  if (format === 'csv') chunk = EXPORT_COLUMNS.map((c) => csvField(c.header)).join(',') + '\r\n';
  const rows = format === 'ndjson' ? archive.exportJson(q) : archive.exportCalls(q);
  // NDJSON is made safe a batch at a time (one pass over 64 KiB, not one per record).
  const out = format === 'ndjson' ? safeJson : (text: string) => text;
  for (const row of rows) {
    chunk += typeof row === 'string' ? row + '\n' : EXPORT_COLUMNS.map((c) => csvField(cellText(c.value(row)))).join(',') + '\r\n';
    n++;
    if (chunk.length >= 1 << 16) {
      await write(out(chunk));
      chunk = '';
    }
  }
  if (chunk) await write(out(chunk));
  return n;
}

function isRegularOrAbsent(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return true;
  }
}

// ---- archive status | sync | clear

const ago = (iso: string) => {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 90
    ? `${s} s ago`
    : s < 5400
      ? `${Math.round(s / 60)} min ago`
      : s < 129_600
        ? `${Math.round(s / 3600)} h ago`
        : `${Math.round(s / 86_400)} days ago`;
};

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1 << 20
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : bytes < 1 << 30
        ? `${(bytes / (1 << 20)).toFixed(1)} MiB`
        : `${(bytes / (1 << 30)).toFixed(2)} GiB`;

async function archiveStatus(cmd: Command): Promise<void> {
  await withArchive(cmd, true, ({ archive, out }) => {
    const s = archive.status();
    if (out.format === 'json') {
      out.write(jsonText(s, 2) + '\n');
      return;
    }
    const record = {
      path: s.path,
      calls: count(s.calls),
      oldest: s.oldest ?? '',
      newest: s.newest ?? '',
      'last sync': s.lastSync ? `${s.lastSync.at} (${ago(s.lastSync.at)})${s.lastSync.error ? `, failed: ${s.lastSync.error}` : ''}` : 'never',
      history: s.complete
        ? 'complete'
        : s.gap
          ? `not complete: ${escapeLine(s.gap)}`
          : s.calls
            ? 'back-fill not finished (the next sync goes on)'
            : 'not synced yet',
      'size on disk': size(s.bytes),
      ...(s.syncing ? { syncing: `pid ${s.syncing.pid} since ${new Date(s.syncing.since).toISOString()}` } : {}),
    };
    if (out.format === 'csv')
      out.write(
        toCsv(
          [{ id: s.path, ...record }],
          Object.keys(record).map((k) => ({ header: k, value: (r: Record<string, string>) => r[k] })),
          out.tty,
        ),
      );
    else if (out.format === 'ids') out.write(s.path + '\n');
    else out.write(toFieldList(record, out.tty, out.color));
  });
}

async function archiveSync(cmd: Command, concurrency: number | undefined): Promise<void> {
  await withApi(cmd, async ({ api, target, out }) => {
    const { openArchiveFor } = await import('../archive/index.js');
    const archive = openArchiveFor(target, process.env, upgradeProgress());
    try {
      const figures: SyncFigures = { held: 0, callsPerSecond: 0 };
      const r = await syncWithProgress(archive, api, { concurrency: concurrency ?? target.syncConcurrency, figures });
      const held = archive.count();
      const callsPerSecond = r.ms > 0 ? Math.round((r.added * 1000) / r.ms) : 0;
      const coverage = archive.coverage();
      if (out.format === 'json')
        out.write(
          jsonText(
            {
              ...r,
              ms: Math.round(r.ms),
              held,
              callsPerSecond,
              ...(coverage.back ? { reachedBack: coverage.back } : {}),
              ...(coverage.share !== undefined ? { share: Math.round(coverage.share * 1000) / 1000 } : {}),
              ...(r.complete ? { etaSeconds: 0 } : figures.etaSeconds !== undefined ? { etaSeconds: figures.etaSeconds } : {}),
            },
            2,
          ) + '\n',
        );
      else if (out.format === 'ids') out.write(archive.path + '\n');
      else
        out.write(
          `${count(r.added)} new, ${count(r.updated)} updated${r.removed ? `, ${count(r.removed)} removed` : ''} in ${Math.round(r.ms)} ms; the archive ` +
            `holds ${count(held)} calls${r.complete ? '' : ' (history not complete)'}\n`,
        );
    } finally {
      archive.close();
    }
  });
}

async function archiveClear(cmd: Command, yes: boolean): Promise<void> {
  refuseWhenReadOnly(cmd, 'clearing the call archive');
  const { ArchiveUnreadable } = await import('../archive/index.js');
  try {
    await clearReadable(cmd, yes);
  } catch (err) {
    if (!(err instanceof ArchiveUnreadable)) throw err;
    await removeUnreadable(cmd, yes, err.path, err.message);
  }
}

/**
 * An archive that cannot be opened is removed whole, with SQLite's files beside it: it is a
 * cache, and the next sync makes it again.
 */
async function removeUnreadable(cmd: Command, yes: boolean, path: string, why: string): Promise<void> {
  if (!yes) {
    if (!io().stdin.isTTY)
      throw new UsageError(`refusing to remove the unreadable call archive ${path} without a terminal to confirm on; add --yes to remove it.`);
    writeErr(why);
    if (!(await confirm(`Remove ${path}? The next sync downloads the calls again.`))) {
      writeErr('not cleared');
      return;
    }
  }
  const { removeArchiveFiles } = await import('../archive/index.js');
  removeArchiveFiles(path);
  const out = outputFor(globalsOf(cmd));
  if (out.format === 'json') out.write(jsonText({ path, cleared: null, removed: true }, 2) + '\n');
  else if (out.format !== 'ids') out.write(`removed the call archive ${escapeLine(path)}, which could not be read; the next sync rebuilds it\n`);
}

async function clearReadable(cmd: Command, yes: boolean): Promise<void> {
  await withArchive(
    cmd,
    true,
    async ({ archive, out }) => {
      const held = archive.count();
      if (!yes) {
        if (!io().stdin.isTTY)
          throw new UsageError(`refusing to clear the call archive (${count(held)} calls) without a terminal to confirm on; add --yes to clear it.`);
        if (!(await confirm(`Clear the call archive at ${archive.path} (${count(held)} calls)? The next sync downloads them again.`))) {
          writeErr('not cleared');
          return;
        }
      }
      archive.clear();
      if (out.format === 'json') out.write(jsonText({ path: archive.path, cleared: held }, 2) + '\n');
      else if (out.format !== 'ids') out.write(`cleared the call archive (${count(held)} calls)\n`);
    },
    false,
  );
}

export function archiveCommand(): Command {
  const cmd = new Command('archive')
    .description('the local call archive: a searchable copy of the call log (calls search | stats | export read it)')
    .addHelpText('after', '\nExamples:\n  $ switchboard archive status\n  $ switchboard archive sync');
  cmd
    .command('status')
    .description('where the archive is, how many calls it holds, their dates, the last sync and its size on disk')
    .addHelpText('after', '\nExamples:\n  $ switchboard archive status\n  $ switchboard archive status -o json | jq .calls')
    .action(action('read the archive status', async (_o: object, c: Command) => archiveStatus(c)));
  cmd
    .command('sync')
    .description('bring the archive up to date with the service (new calls, calls still in progress, older history)')
    .addHelpText('after', '\nExamples:\n  $ switchboard archive sync\n  $ switchboard --profile prod archive sync -o json')
    .option(
      '--concurrency <n>',
      "at most n history requests in flight (default 8, or the profile's syncConcurrency); the pace adapts below it",
      positiveIntUpTo(64),
    )
    .action(action('sync the call archive', async (o: { concurrency?: number }, c: Command) => archiveSync(c, o.concurrency)));
  cmd
    .command('clear')
    .description('empty the archive (asks first on a terminal; scripts must pass --yes); the next sync fills it again')
    .option('-y, --yes', 'clear without asking')
    .addHelpText('after', '\nExamples:\n  $ switchboard archive clear\n  $ switchboard archive clear --yes')
    .action(action('clear the call archive', async (o: { yes?: boolean }, c: Command) => archiveClear(c, o.yes === true)));
  return cmd;
}

function archiveFilters(cmd: Command): Command {
  return cmd
    .option('--assistant <id|name>', 'only calls handled by this assistant (its id, short id or name; --offline: its id)', nonEmpty)
    .option('--number <id|DID>', 'only calls on this phone number (its id, short id or DID; --offline: its id)', nonEmpty)
    .option('--after <date>', 'created on or after (ISO 8601, YYYY-MM-DD, or 24h / 7d ago)', startDate)
    .option('--before <date>', 'created on or before (same forms as --after)', endDate)
    .option('--offline', 'use only what the archive holds (no sync first, no connection)')
    .option('--complete', "while the archive's history is still being filled, wait for all of it (default: new calls only)");
}

/** calls search | stats | export, added to the `calls` command. */
export function addArchiveCommands(calls: Command): void {
  archiveFilters(
    calls
      .command('search')
      .description('full-text search of the archived transcripts, summaries and customers, newest first, with a snippet (syncs first)')
      .argument('<text>', 'words (all must occur), "a phrase", or a prefix*'),
  )
    .option('--limit <n>', 'at most n calls', positiveIntUpTo(100_000), 20)
    .addHelpText(
      'after',
      `\nExamples:\n  $ switchboard calls search refund\n  $ switchboard calls search '"opening hours" sat*' --after 7d\n` +
        `  $ switchboard calls search warranty --offline -o ids`,
    )
    .action(
      action('search the calls', async (text: string, o: SearchFlags, c: Command) => {
        const { searchTerms } = await import('../archive/fts.js');
        if (searchTerms(text).match === undefined)
          throw new UsageError(`nothing to search for in ${JSON.stringify(text)}: give a word, a "phrase" or a prefix*`);
        await withArchive(
          c,
          o.offline === true,
          async ({ archive, out, api }) => {
            const q = await resolvedQuery(o, api);
            const hits = archive.search(text, q, { limit: o.limit });
            printSearch(out, hits);
            const total = hits.length < o.limit ? hits.length : archive.countSearch(text, q);
            if (total > hits.length)
              noteMore(writeErr, 'calls match', `showed ${count(hits.length)} of ${count(total)}`, `--limit ${Math.min(total, 100_000)} for every one`);
          },
          true,
          o.complete === true,
        );
      }),
    );

  archiveFilters(
    calls
      .command('stats')
      .description('calls, minutes, cost and average duration per day, assistant, number, status or ended reason, with a total (syncs first)'),
  )
    .addOption(new Option('--by <group>', 'what to group by').choices(['day', 'assistant', 'number', 'status', 'endedReason']).default('day'))
    .addHelpText(
      'after',
      "\nExamples:\n  $ switchboard calls stats --after 30d\n  $ switchboard calls stats --by assistant -o json | jq '.[] | {name, cost}'\n" +
        '  $ switchboard calls stats --by endedReason -o csv > reasons.csv',
    )
    .action(
      action('compute call stats', async (o: ArchiveFlags & { by: StatsBy }, c: Command) => {
        const g: Globals = globalsOf(c);
        if (g.output === 'ids') throw new UsageError('calls stats prints table, json or csv (-o ids lists records, and stats has none)');
        await withArchive(
          c,
          o.offline === true,
          async ({ archive, out, target, api }) => printStats(out, archive.stats(o.by, await resolvedQuery(o, api)), await statsNames(o.by, out, target, api)),
          true,
          o.complete === true,
        );
      }),
    );

  archiveFilters(
    calls.command('export').description('every matching call, full record with transcript, as NDJSON (one record per line) or CSV, streamed (syncs first)'),
  )
    .addOption(
      new Option('--format <format>', 'ndjson: each record as the service sent it; csv: one row per call').choices(['ndjson', 'csv']).default('ndjson'),
    )
    .option('--out <file>', 'write to this file (written whole or not at all) instead of stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard calls export --after 2026-11-01 > november.ndjson\n  $ switchboard calls export --format csv --out calls.csv\n' +
        '  $ switchboard calls export --offline | jq -r .transcript',
    )
    .action(
      action('export the calls', async (o: ExportFlags, c: Command) => {
        // Opened before the sync: a path that cannot be written is said at once, not after the wait.
        const file = o.out === undefined ? undefined : exportFile(o.out);
        try {
          await withArchive(
            c,
            o.offline === true,
            async ({ archive, api }) => {
              const q = await resolvedQuery(o, api);
              if (!file) {
                await exportCalls(archive, q, o.format, io().stdout);
                return;
              }
              const n = await exportCalls(archive, q, o.format, file.stream);
              await file.finish();
              if (io().stderr.isTTY) io().stderr.write(`exported ${count(n)} calls to ${escapeLine(o.out!)}\n`);
            },
            true,
            o.complete === true,
          );
        } finally {
          await file?.discard();
        }
      }),
    );
}

/**
 * Where --out writes. A regular file (or none yet) is written as a side file renamed at the end,
 * so an interrupted or failed export never leaves half a file under the name, nor the side file;
 * anything else (/dev/null, a FIFO, a terminal) is written as it is, never replaced.
 */
function exportFile(path: string): { stream: NodeJS.WritableStream; finish(): Promise<void>; discard(): Promise<void> } {
  const regular = isRegularOrAbsent(path);
  const side = `${path}.partial-${process.pid}`;
  let stream: ReturnType<typeof createWriteStream>;
  if (regular) {
    // Opened here, at once: an open that fails later, inside the stream, would name the side file.
    let fd: number;
    try {
      fd = openSync(side, 'w', 0o600);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ENOENT' ? 'its directory does not exist' : e.code === 'EACCES' ? 'permission denied' : e.message;
      throw new UsageError(`--out ${path}: cannot write it (${why})`);
    }
    stream = createWriteStream('', { fd });
  } else stream = createWriteStream(path, { flags: 'a' });
  let finished = false;
  return {
    stream,
    async finish() {
      await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
      if (regular) renameSync(side, path);
      finished = true;
    },
    async discard() {
      if (finished) return;
      finished = true;
      await new Promise<void>((resolve) => {
        if (stream.closed) return resolve();
        stream.once('close', () => resolve());
        stream.once('error', () => undefined);
        stream.destroy();
      });
      if (regular) rmSync(side, { force: true });
    },
  };
}
