// switchboard calls list | get | outbound | watch
import { Command } from 'commander';
import type { VoiceAgentApi } from '../api/contract.js';
import type { Call, CallFilters } from '../api/schemas.js';
import { callCost, callDuration, isToolTurn, shown, speakerWord, viewCall } from '../api/records.js';
import { callSections, otherFields, tableLines } from '../api/call-details.js';
import { wrapText } from '../format/display.js';
import { phoneNumberIdOf } from './numbers.js';
import { ASSISTANT, resolvedFlags, resolveId } from './resolve.js';
import { endDate, startDate, e164, nonEmpty, positiveIntUpTo } from './input.js';
import { MAX_CALL_PAGE } from '../api/pager.js';
import { cellWidth, padCells, truncateCells } from '../format/cells.js';
import { type Column } from '../format/column.js';
import { escapeLine, jsonText } from '../format/escape.js';
import { shortId } from '../format/table-text.js';
import { SHORT_ID_LEAST } from '../format/short-id.js';
import { listNamesFor, listWriter, noteMore, paint, printList, printRecord, statusTone, toFieldList, type ListNames, type OutputTarget } from './output.js';
import { action, globalsOf, rejectStrayWords, withApi, writeErr } from './runtime.js';
import { noteUnread } from './written.js';
import { openConsole } from './console.js';
import { addArchiveCommands } from './archive.js';
import { grouped } from '../format/words.js';
import { io } from './io.js';

const CALL_COLUMNS: Column<Call>[] = [
  { header: 'id', value: (c) => c.id, priority: 2, id: true },
  // A field of another type than expected is shown as received (`shown`); cost and duration
  // are numbers, or numeric strings read as numbers.
  { header: 'created', value: (c) => shown(c.createdAt), priority: 1 },
  { header: 'type', value: (c) => shown(c.type), priority: 5 },
  { header: 'status', value: (c) => shown(c.status), tone: (c) => statusTone(c.status), priority: 1 },
  { header: 'assistant', value: (c) => shown(c.assistantId), priority: 2, grow: true, width: 12 },
  { header: 'number', value: (c) => shown(c.phoneNumberId), priority: 6, grow: true, width: 12 },
  { header: 'customer', value: (c) => shown(c.customer?.number), priority: 3 },
  { header: 'duration', value: (c) => callDuration(c) ?? shown(c.durationSeconds), priority: 4, align: 'right' },
  { header: 'cost', value: (c) => callCost(c) ?? shown(c.cost), priority: 8, align: 'right' },
  { header: 'ended reason', value: (c) => shown(c.endedReason), priority: 9, grow: true, width: 12 },
];

/** The columns with assistant and number names where the list cache knows them (on a terminal). */
function namedCallColumns(names: ListNames | undefined): Column<Call>[] {
  if (!names) return CALL_COLUMNS;
  return CALL_COLUMNS.map((col) =>
    col.header === 'assistant'
      ? { ...col, value: (c: Call) => names.assistant(c.assistantId) ?? c.assistantId }
      : col.header === 'number'
        ? { ...col, value: (c: Call) => names.number(c.phoneNumberId) ?? c.phoneNumberId }
        : col,
  );
}

export interface ListFlags {
  assistant?: string;
  number?: string;
  after?: string;
  before?: string;
  limit?: number;
  id?: string;
  all?: boolean;
}

function callFilters(flags: ListFlags): CallFilters {
  return {
    id: flags.id,
    assistantId: flags.assistant,
    phoneNumberId: flags.number,
    createdAtGt: flags.after,
    createdAtLt: flags.before,
    limit: flags.limit,
  };
}

/**
 * The newest `limit` calls matching the filters (100 by default), or with `all` every one, newest
 * first. Either is walked page by page (src/api/pager.ts), so a service that caps its pages, names
 * its date filters otherwise or ignores them still gives exactly the calls asked for, only calls
 * inside the dates asked for, or a clear failure; what the user should know about that goes to
 * stderr once.
 */
export async function listCalls(
  api: VoiceAgentApi,
  out: OutputTarget,
  flags: ListFlags,
  note: (line: string) => void = writeErr,
  names?: ListNames,
): Promise<void> {
  const CALL_COLUMNS = namedCallColumns(names);
  const filters = { ...callFilters(await resolvedFlags(api, flags)), limit: undefined };
  const { walkCallLog, newestCalls, DEFAULT_CALL_PAGE, MAX_CALL_PAGE, PagingError } = await import('../api/pager.js');
  // Where the service cannot be paged further, the calls read are right: shown, then the failure.
  const shownIf = (err: unknown, show: () => void) => {
    if (err instanceof PagingError) show();
    return err;
  };
  const onNotice = (text: string) => note(`note: ${text}`);
  if (!flags.all) {
    // An id names one call: found, the list is whole.
    const want = flags.id ? 1 : (flags.limit ?? DEFAULT_CALL_PAGE);
    const calls: Call[] = [];
    let more = false;
    try {
      if (flags.id) {
        for await (const page of walkCallLog(api, filters, { pageSize: want, onNotice })) {
          calls.push(...page.slice(0, want - calls.length));
          if (calls.length >= want) break;
        }
      } else more = (await newestCalls(api, filters, want, { onNotice, onPage: (page) => calls.push(...page) })).more;
    } catch (err) {
      throw shownIf(err, () => printList(out, calls, CALL_COLUMNS));
    }
    printList(out, calls, CALL_COLUMNS);
    if (more)
      noteMore(
        note,
        'calls',
        `showed the newest ${grouped(calls.length)}`,
        `--all for every one${want < MAX_CALL_PAGE ? `, or --limit up to ${grouped(MAX_CALL_PAGE)}` : ''}`,
      );
    return;
  }
  const writer = listWriter(out, CALL_COLUMNS);
  try {
    for await (const page of walkCallLog(api, filters, { pageSize: flags.limit ?? MAX_CALL_PAGE, onNotice })) writer.add(page);
  } catch (err) {
    throw shownIf(err, () => writer.end());
  }
  writer.end();
}

export async function showCall(api: VoiceAgentApi, out: OutputTarget, id: string): Promise<void> {
  const call = await api.getCall(id);
  if (out.format !== 'table') return printRecord(out, call, CALL_COLUMNS);
  const shown = callFieldsToShow(call);
  const talk = dialogue(call, out.tty ? out.width : undefined, out.color);
  // The conversation reads as a dialogue below the fields, not as the messages' JSON.
  if (talk.length) {
    delete shown.messages;
    delete shown.transcript;
  }
  out.write(toFieldList(shown, out.tty, out.color));
  // The cost breakdown, analysis, latencies and recording, each under its name, in the fields' form.
  for (const section of callSections(call)) {
    const rows: Record<string, unknown> = Object.fromEntries(section.rows);
    out.write(`\n${paint(out.color, 'bold', section.title.toLowerCase())}\n`);
    if (section.rows.length) out.write(toFieldList(rows, out.tty, out.color).replace(/^(?=.)/gm, '  '));
    if (section.table)
      out.write(
        tableLines(section.table)
          .map((l, i) => `  ${i === 0 ? paint(out.color, 'dim', escapeLine(l)) : escapeLine(l)}\n`)
          .join(''),
      );
  }
  if (talk.length) out.write(`\n${paint(out.color, 'bold', 'transcript')}\n${talk.join('\n')}\n`);
}

/**
 * A call's turns, "Speaker: words" a turn (wrapped under itself to `width` on a terminal); its
 * transcript's lines when it has no turns. A tool's call or result is a line of its own, dimmed
 * where there is color.
 */
function dialogue(call: Call, width: number | undefined, color = false): string[] {
  const v = viewCall(call);
  const turns = v.turns
    .filter((t) => t.text !== '' && t.role !== 'system')
    .map((t) => ({ line: `${speakerWord(t.role)}: ${t.text}`, tool: isToolTurn(t.role) }));
  const lines = turns.length ? turns : (v.transcript?.split('\n').filter((l) => l.trim()) ?? []).map((line) => ({ line, tool: false }));
  const dim = (tool: boolean, s: string) => (tool ? paint(color, 'dim', s) : s);
  if (!width) return lines.map((l) => dim(l.tool, `  ${escapeLine(l.line)}`));
  return lines.flatMap((l) => wrapText(l.line, Math.max(20, width - 4)).map((w, i) => dim(l.tool, i === 0 ? `  ${w}` : `    ${w}`)));
}

/**
 * A call's fields for people: every field as returned, then what the record gives only in
 * another shape (a duration from startedAt/endedAt, analysis.summary, the messages' words).
 */
function callFieldsToShow(call: Call): Record<string, unknown> {
  const v = viewCall(call);
  // The fields the sections show are there; the artifact's others are listed one by one.
  const shown: Record<string, unknown> = Object.fromEntries(otherFields(call, new Set()));
  if (call.durationSeconds == null && v.durationSeconds !== undefined) shown.duration = `${Math.round(v.durationSeconds)}s (startedAt to endedAt)`;
  if (call.cost == null && v.cost !== undefined) shown.cost = v.cost;
  if (!call.summary && v.summary && !callSections(call).some((s) => s.title === 'Analysis')) shown.summary = v.summary;
  if (!call.transcript && v.transcript) shown.transcript = v.transcript;
  return shown;
}

interface OutboundFlags {
  assistant: string;
  number: string;
  to: string;
  name?: string;
}

async function placeCall(api: VoiceAgentApi, out: OutputTarget, flags: OutboundFlags, warn: (line: string) => void = writeErr): Promise<void> {
  const since = new Date(Date.now() - 60_000).toISOString();
  const assistantId = await resolveId(api, ASSISTANT, flags.assistant);
  const phoneNumberId = await phoneNumberIdOf(api, flags.number);
  const placed = await api.placeOutboundCall({
    assistantId,
    phoneNumberId,
    customer: flags.name === undefined ? { number: flags.to } : { number: flags.to, name: flags.name },
  });
  if (placed.record) printRecord(out, placed.record, CALL_COLUMNS);
  // Accepted, but without a call in the answer: a success whose id we cannot print.
  noteUnread(
    'the service accepted the call',
    placed,
    `the call's id is unknown; to find it: switchboard calls list --assistant ${assistantId} --number ${phoneNumberId} --after ${since}`,
    warn,
  );
}

/** What changed between two polls of the log: calls not seen before, or seen with another status. */
function callChanges(seen: Map<string, string | null | undefined>, calls: readonly Call[]): Call[] {
  const changed: Call[] = [];
  for (const call of [...calls].reverse()) {
    if (!seen.has(call.id) || seen.get(call.id) !== call.status) changed.push(call);
    seen.set(call.id, call.status);
  }
  return changed;
}

/**
 * Polls the log and prints each new call and each status change, oldest first, until `signal`
 * aborts (Ctrl-C). Calls already in the log when the watch starts are not printed, but their
 * later status changes are. json prints one record per line so a pipe can read it as it comes.
 */
export async function watchCalls(api: VoiceAgentApi, out: OutputTarget, flags: ListFlags & { interval: number }, signal: AbortSignal): Promise<void> {
  const seen = new Map<string, string | null | undefined>();
  // Calls from the last hour may still be changing status; older ones are done.
  const since = new Date(Date.now() - 3600_000).toISOString();
  const filters: CallFilters = { ...callFilters(await resolvedFlags(api, flags)), createdAtGt: flags.after ?? since, limit: 1000 };
  let first = true;
  const rows = listWriter(out, CALL_COLUMNS);
  while (!signal.aborted) {
    let calls: Call[];
    try {
      calls = await api.listCalls(filters, { signal });
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
    const changed = callChanges(seen, calls);
    if (!first && changed.length > 0) {
      if (out.format === 'json') out.write(changed.map((c) => jsonText(c) + '\n').join(''));
      else if (out.format === 'ids') out.write(changed.map((c) => escapeLine(c.id) + '\n').join(''));
      else if (out.format === 'table' && out.tty) out.write(changed.map((c) => watchLine(c, out) + '\n').join(''));
      else rows.add(changed);
    }
    if (first && out.tty && out.format === 'table') io().stderr.write('watching the call log; Ctrl-C to stop\n');
    first = false;
    await sleep(flags.interval * 1000, signal);
  }
}

/**
 * One event on a terminal, in fixed-width columns so lines from different polls line up, cut to
 * the terminal's width in cells (the id short unless --wide, as in a table), so no line wraps.
 */
function watchLine(c: Call, out: OutputTarget): string {
  const time = new Date().toTimeString().slice(0, 8);
  // Service text, escaped and padded in terminal cells (a cell is never cut: only padded up to its width).
  const cell = (s: string, width: number) => {
    const t = escapeLine(s);
    return padCells(t, Math.max(width, cellWidth(t)));
  };
  const id = out.wide ? escapeLine(c.id) : (shortId(escapeLine(c.id), SHORT_ID_LEAST) ?? truncateCells(escapeLine(c.id), SHORT_ID_LEAST));
  const status = cell(c.status ?? '', 11);
  const type = cell(c.type === 'inboundPhoneCall' ? 'inbound' : c.type === 'outboundPhoneCall' ? 'outbound' : (c.type ?? ''), 8);
  const head = `${time}  ${id}  ${status}  ${type}`;
  const whoText = escapeLine([c.customer?.number, c.customer?.name].filter(Boolean).join(' '));
  const ended = c.status === 'ended' ? escapeLine(`${Math.round(callDuration(c) ?? 0)}s ${c.endedReason ?? ''}`) : '';
  let tail = `${cell(whoText, 28)}  ${ended}`.trimEnd();
  const room = out.width ? out.width - cellWidth(head) - 2 : Infinity;
  // Too narrow even for the fixed columns: the plain line, cut.
  if (room < 1) return truncateCells(`${head}  ${tail}`.trimEnd(), out.width!);
  if (cellWidth(tail) > room) {
    // How the call ended says more than who it was with: the customer gives way first.
    const whoRoom = ended ? room - cellWidth(ended) - 2 : room;
    tail = whoRoom >= 6 ? `${ended ? padCells(whoText, whoRoom) : truncateCells(whoText, whoRoom)}  ${ended}`.trimEnd() : truncateCells(ended || whoText, room);
  }
  return `${paint(out.color, 'dim', time)}  ${id}  ${paint(out.color, statusTone(c.status) ?? 'dim', status)}  ${type}  ${tail}`.trimEnd();
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function filterOptions(cmd: Command): Command {
  return cmd
    .option('--assistant <id|name>', 'only calls handled by this assistant (its id, short id or name)', nonEmpty)
    .option('--number <id|DID>', 'only calls on this phone number (its id, short id or DID)', nonEmpty)
    .option('--after <date>', 'created on or after (ISO 8601, YYYY-MM-DD, or 24h / 7d ago)', startDate)
    .option('--before <date>', 'created on or before (same forms as --after)', endDate);
}

export function callsCommand(): Command {
  const cmd = new Command('calls')
    .description('browse the call log, place outbound calls, watch calls as they happen; alone, on a terminal: the console on the call log')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard calls                            the console, on the call log\n  $ switchboard calls list --after 7d -o csv > week.csv\n' +
        '  $ switchboard calls watch\n  $ switchboard calls search "refund"',
    )
    // Alone on a terminal: the console opened on the call log (its first frame shows the archive's
    // rows). Elsewhere, as before: the help, exit 2.
    .allowExcessArguments(true)
    .action(
      action('open the call log', async (_o: unknown, c: Command) => {
        rejectStrayWords(c);
        if (!io().stdin.isTTY || !io().stdout.isTTY) {
          c.help({ error: true });
          return;
        }
        await openConsole(globalsOf(c), { what: 'the console', forScripts: 'switchboard calls list', initialRoute: { screen: 'calls' } });
      }),
    );

  filterOptions(cmd.command('list').description('list calls, newest first'))
    .option('--id <callId>', 'only the call with this id', nonEmpty)
    .option(
      '--limit <n>',
      `at most n calls (the service default is 100, at most ${MAX_CALL_PAGE}); with --all, calls per request`,
      positiveIntUpTo(MAX_CALL_PAGE),
    )
    .option('--all', 'page through the whole log matching the filters')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard calls list --after 24h\n  $ switchboard calls list --assistant asst_123 --after 2026-11-01 --before 2026-11-02 -o csv > ' +
        'day.csv\n  $ switchboard calls list --all -o ids | wc -l',
    )
    .action(
      action('list calls', async (o: ListFlags, c: Command) =>
        withApi(c, async ({ api, out, target }) => listCalls(api, out, o, writeErr, await listNamesFor(out, target))),
      ),
    );

  cmd
    .command('get')
    .description('show one call with its transcript and every field the service returned')
    .argument('<id>', 'call id', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard calls get call_123\n  $ switchboard calls get call_123 -o json | jq -r .transcript')
    .action(action('get the call', async (id: string, _o: object, c: Command) => withApi(c, ({ api, out }) => showCall(api, out, id))));

  cmd
    .command('outbound')
    .description('place an outbound call from one of your numbers')
    .requiredOption('--assistant <id|name>', 'assistant that talks on the call: its id, short id or name', nonEmpty)
    .requiredOption('--number <id|DID>', 'phone number to call from: its id, short id or DID (+12125550142)', nonEmpty)
    .requiredOption('--to <E.164>', 'customer number in E.164 form, like +14155550123', e164)
    .option('--name <customer name>', 'customer name')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard calls outbound --assistant asst_123 --number pn_456 --to +14155550123 --name "Ada"\n' +
        '  $ switchboard calls outbound --assistant asst_123 --number +12125550142 --to +14155550123',
    )
    .action(action('place the call', async (o: OutboundFlags, c: Command) => withApi(c, ({ api, out }) => placeCall(api, out, o))));

  filterOptions(cmd.command('watch').description('print new calls and status changes as they happen, until Ctrl-C'))
    .option('--interval <seconds>', 'seconds between polls (at most a day)', positiveIntUpTo(24 * 60 * 60), 2)
    .addHelpText('after', '\nExamples:\n  $ switchboard calls watch\n  $ switchboard calls watch --assistant asst_123 -o json | jq .status')
    .action(
      action('watch calls', async (o: ListFlags & { interval: number }, c: Command) => {
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          await withApi(c, ({ api, out }) => watchCalls(api, out, o, stop.signal));
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      }),
    );

  addArchiveCommands(cmd);
  return cmd;
}
