// The console's start, before React and Ink are loaded (they take a few hundred ms): resolve the
// target (a bad profile is refused before the terminal is taken), take the terminal (terminal.ts),
// start connecting (for the embedded sandbox: fork it now, so it loads on the other core while
// this process loads the UI), draw the frame's chrome at once, then load the UI and hand over to run.tsx.
//
// The first frame is the real chrome (header, breadcrumbs, key hints) from the same functions
// the Ink components use, with a list's cached rows, or, opened on the call log (`switchboard
// calls`), the archive's newest calls; keys typed meanwhile wait in stdin for the app.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { Config } from '../config/config.js';
import { resolveTargetWith, serviceOf, type Target } from '../config/resolve.js';
import { maskKey } from '../config/mask.js';
import { configFile, stateDir } from '../config/paths.js';
import { debugLogPath, debugLogWriter } from '../crash.js';
import { connect, type Connection } from '../target.js';
import type { RateLimitWait } from '../api/http.js';
import type { ConsoleTarget, Route } from '../store/types.js';
import { CONNECTION_MARK, footerLine, headerLeft, routeFooter } from './chrome-text.js';
import { truncate } from '../format/display.js';
import { ROUTES, titleOf } from './screens/routes.js';
import { cachedRowsFor, consoleCacheDir } from '../store/cached.js';
import { fitColumns, headerLine, rowLine, tableBodyHeight } from '../format/table-text.js';
import { ASSISTANT_COLUMNS, FILE_COLUMNS, countLine, filesLine, nameIn, numberColumns } from './screens/lists.js';
import { CHART_ROWS, LIVE_MARK, callColor, callColumns, callStatusText, chartText, syncWords } from './screens/calls/log-text.js';
import type { CallLogPeek } from '../archive/index.js';
import type { Column } from '../format/column.js';
import { takeTerminal, type Terminal } from './terminal.js';
import { installKeymap } from './keymap.js';
import { loadUserKeymap } from './keys-file.js';
import { loadTheme, setTheme, sgrColor, theme } from './theme.js';

export interface ConsoleOptions {
  profile?: string;
  /** Colour wanted by the flags and environment; the terminal may still have none. */
  color: boolean;
  /** Each request and response line goes to the debug log (the screen is the console's). */
  debug?: boolean;
  /** --read-only: every write refused (the profile may ask for it too). */
  readOnly?: boolean;
  /** --mouse: the wheel scrolls and a click selects. */
  mouse?: boolean;
  /** --theme: light, dark or a theme file's path (ui/theme.ts). */
  theme?: string;
  /** Open on this screen instead of Assistants (e.g. `switchboard chat` opens Chat). */
  initialRoute?: { screen: 'assistants' | 'numbers' | 'calls' | 'chat' | 'files'; assistantId?: string; sessionId?: string };
}

/** What start hands to run.tsx. */
export interface Started {
  resolved: Target;
  connecting: Promise<Connection>;
  /** What the header shows until connected. */
  target: ConsoleTarget;
  route: Route;
  terminal: Terminal;
  /** Where --debug writes, when it was given. */
  debugLog?: string;
  /** --read-only was given: a profile switched to is read-only too. */
  readOnly?: boolean;
  /** Who is told of each wait on a 429 from now on (the connection starts before the app is up). */
  onRateLimited(listener: (wait: RateLimitWait) => void): void;
}

function routeFrom(r: ConsoleOptions['initialRoute']): Route {
  if (!r) return { name: 'assistants' };
  if (r.screen === 'chat')
    return { name: 'chat', ...(r.sessionId ? { sessionId: r.sessionId } : {}), ...(r.assistantId ? { assistantId: r.assistantId } : {}) };
  return { name: r.screen };
}

export function shownTarget(kind: Target['kind'], profile: string, baseUrl: string, apiKey?: string, cacheDir?: string): ConsoleTarget {
  return { kind, profile, baseUrl, maskedKey: apiKey ? maskKey(apiKey) : undefined, ...(cacheDir ? { cacheDir } : {}) };
}

/** What the header shows of a resolved target, and where the console keeps what it holds for it (caches, state); `baseUrl` once connected. */
export function consoleTarget(resolved: Target, baseUrl = resolved.baseUrl): ConsoleTarget {
  return {
    ...shownTarget(resolved.kind, resolved.profile, baseUrl ?? 'starting…', resolved.apiKey, consoleCacheDir()),
    service: serviceOf(resolved),
    stateDir: stateDir(),
    ...(resolved.readOnly ? { readOnly: true } : {}),
  };
}

/**
 * The console's old generation may grow to 1.5× what was live after the last full GC before the
 * next one, not V8's own factor (up to 4× for a small, quickly collected heap). Paging the call
 * log reads many large bodies, each one string: large objects, which only a full GC frees. With
 * V8's factor they piled up as dead strings before the first full GC came, and the console's
 * resident memory with them; at 1.5× the full GCs come sooner and it stays near what a GC leaves.
 * Paging pays for the extra full GCs (see src/README.md, Memory).
 */
const HEAP_GROWING_PERCENT = 50;

export async function startConsole(opts: ConsoleOptions): Promise<number> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = await consoleConfig();
  const resolved = resolveTargetWith({ profile: opts.profile, readOnly: opts.readOnly }, () => config);
  // The user's keys (a mistake is refused here, before the terminal is taken): the table every reader uses from now on.
  installKeymap(await loadUserKeymap());
  // The colours, likewise: a mistake in a theme file is refused before the terminal is taken.
  setTheme(await loadTheme(opts.theme ?? config.theme));
  // Taken before Ink loads: colour and glyphs (capabilities.ts) are decided here, and the first frame is drawn with them.
  const terminal = takeTerminal({ color: opts.color, mouse: opts.mouse || config.mouse === true });
  let uiSettled = (): void => undefined;
  const uiLoaded = new Promise<void>((resolve) => (uiSettled = resolve));
  const debugLog = opts.debug ? debugLogPath() : undefined;
  let rateLimited: ((wait: RateLimitWait) => void) | undefined;
  const connecting = connect({
    resolved,
    sandboxIn: 'child',
    loadClientAfter: uiLoaded,
    debug: debugLog ? debugLogWriter() : undefined,
    onRateLimited: (w) => rateLimited?.(w),
  });
  connecting.catch(() => undefined); // handled in run.tsx, which may attach a little later
  const target = consoleTarget(resolved);
  const route = routeFrom(opts.initialRoute);
  const callLog = route.name === 'calls' ? await peekCalls(resolved, terminal.rows) : undefined;
  terminal.write(chromeFrame({ ...target, callLog }, route, terminal.columns, terminal.rows, terminal.color));
  // Started only once the frame is out: from Node 24, import() reads and compiles the whole UI graph
  // (React, Ink, zod, the first screen) before it returns, which would hold the frame back that long.
  const ui = import('./run.js');
  void ui.then(uiSettled, uiSettled);
  const run = await ui.catch((err: unknown) => {
    terminal.restore(); // so the line that says why is printed on the main screen, where it stays
    throw err;
  });
  return run.runConsole({
    resolved,
    connecting,
    target,
    route,
    terminal,
    debugLog,
    readOnly: opts.readOnly,
    onRateLimited: (l) => void (rateLimited = l),
  });
}

/**
 * The config file, read and checked (config.ts, with its zod schema) only when there is one: on a
 * machine with none, the first frame is drawn without loading zod.
 */
async function consoleConfig(): Promise<Config> {
  if (!existsSync(configFile())) return { profiles: {} };
  return (await import('../config/config.js')).loadConfig();
}

/** The call log's first screen from the archive, when the console opens on it (node:sqlite and the archive load only then). */
async function peekCalls(resolved: Target, rows: number): Promise<CallLogPeek | undefined> {
  const [{ archivePath, peekCallLog, serviceOf }, { CHART_DAYS }] = await Promise.all([import('../archive/index.js'), import('../store/calls.js')]);
  return peekCallLog(archivePath(resolved.profile), serviceOf(resolved), { limit: Math.max(1, rows), chartFrom: Date.now() - CHART_DAYS * 86_400_000 });
}

/**
 * The list screens' body as the app draws it from the cached rows (src/store/cached.ts) before
 * the service answers: status line, table header, the rows that fit, the first one selected.
 * Empty when the route is not such a list or nothing is cached.
 */
function cachedBody(
  target: FrameTarget,
  route: Route,
  width: number,
  bodyHeight: number,
  now = Date.now(),
): { above?: { chart: string[]; legend: string }; status: string; header: string; rows: string[]; colors?: (string | undefined)[] } | undefined {
  if (route.name === 'calls' && target.callLog?.total) {
    // As the Calls screen lays it out: chart, legend, status line, then the table.
    const log = target.callLog;
    const assistants = target.cacheDir ? cachedRowsFor({ ...target, cacheDir: target.cacheDir }, 'assistants')?.rows : undefined;
    const numbers = target.cacheDir ? cachedRowsFor({ ...target, cacheDir: target.cacheDir }, 'numbers')?.rows : undefined;
    // Fitted to the rows in view, as the Calls screen fits its table.
    const shown = log.calls.slice(0, tableBodyHeight(Math.max(3, bodyHeight - CHART_ROWS - 2)));
    const cols = fitColumns(callColumns(nameIn(assistants), numbers), shown, width);
    const chart = chartText(log.perDay, width);
    // The console syncs as soon as it is up: the words it will say.
    const sync = syncWords({ running: true, lastAt: log.lastAt, complete: log.complete }, now);
    return {
      above: { chart: chart.rows.map((r) => truncate(r, width)), legend: chart.legend },
      status: truncate(
        `${LIVE_MARK.live}${callStatusText({ filters: '', total: log.total, cursor: 0, complete: log.complete, filtering: false, sync })}`,
        width,
      ),
      header: headerLine(cols),
      rows: shown.map((c) => rowLine(cols, c)),
      colors: shown.map(callColor),
    };
  }
  if (!target.cacheDir) return undefined;
  const table = <T>(status: string, columns: Column<T>[], list: T[]) => {
    const cols = fitColumns(columns, list, width);
    return { status: truncate(status, width), header: headerLine(cols), rows: list.slice(0, tableBodyHeight(bodyHeight - 1)).map((r) => rowLine(cols, r)) };
  };
  const cached = { ...target, cacheDir: target.cacheDir };
  const read = <K extends 'assistants' | 'numbers' | 'files'>(name: K) => cachedRowsFor(cached, name);
  // The store reads the same files when it is made, with the same status: cached, not yet loading.
  const res = <T>(hit: { rows: T; savedAt: number }) => ({ status: 'idle' as const, data: hit.rows, fetchedAt: hit.savedAt, cached: true });
  if (route.name === 'assistants') {
    const hit = read('assistants');
    if (hit?.rows.length) return table(countLine(res(hit), 'assistant', { cursor: 0, shown: hit.rows.length }, now), ASSISTANT_COLUMNS, hit.rows);
  } else if (route.name === 'numbers') {
    const hit = read('numbers');
    if (hit?.rows.length)
      return table(countLine(res(hit), 'number', { cursor: 0, shown: hit.rows.length }, now), numberColumns(nameIn(read('assistants')?.rows)), hit.rows);
  } else if (route.name === 'files') {
    const hit = read('files');
    if (hit?.rows.files.length) return table(filesLine(res(hit), { cursor: 0, shown: hit.rows.files.length }, now), FILE_COLUMNS, hit.rows.files);
  }
  return undefined;
}

/** What the frame before Ink shows: the target, and the call log's first screen when it opens on it. */
export type FrameTarget = ConsoleTarget & { callLog?: CallLogPeek };

/** The frame as the app draws it while connecting: header, breadcrumbs, key hints, and a list's cached rows. */
export function chromeFrame(target: FrameTarget, route: Route, columns: number, rows: number, color: boolean): string {
  const width = Math.max(20, columns);
  const sgr = (codes: string, text: string, reset: string) => (color ? `\x1b[${codes}m${text}\x1b[${reset}m` : text);
  const conn = CONNECTION_MARK.connecting;
  const p = theme();
  const fg = (name: 'accent' | 'good' | 'headerText' | 'warning') => sgrColor(p[name]);
  const onHeader = `${fg('headerText')};${sgrColor(p.headerBg, true)}`;
  const header = color
    ? `\x1b[${onHeader}m${headerLeft(target, width)}\x1b[${sgrColor(p[conn.color])}m${conn.mark}\x1b[${fg('headerText')}m connecting\x1b[0m`
    : `${headerLeft(target, width)}${conn.mark} connecting`;
  const at = (row: number, text: string) => `\x1b[${row};1H${text}`;
  // A call row's colour, as Ink draws it (the state colours of log-text.ts).
  const tinted = (c: string | undefined, text: string) => (c ? sgr(sgrColor(c), text, '39') : text);
  // Laid out as app.tsx lays it out with no bar, flash or dialog: header 2, body, flash 1, footer 1.
  const body = cachedBody(target, route, width, Math.max(3, rows - 4));
  const top = body?.above ? 3 + body.above.chart.length + 1 : 3;
  const aboveText = body?.above
    ? body.above.chart.map((r, i) => at(3 + i, sgr(fg('good'), r, '39'))).join('') + at(3 + body.above.chart.length, sgr('2', body.above.legend, '22'))
    : '';
  const bodyText = body
    ? aboveText +
      at(top, sgr('2', body.status, '22')) +
      at(top + 1, sgr(`1;${fg('accent')}`, body.header, '22;39')) +
      body.rows.map((r, i) => at(top + 2 + i, tinted(body.colors?.[i], i === 0 ? sgr('7', r, '27') : r))).join('')
    : '';
  return (
    '\x1b[?25l\x1b[2J' +
    at(1, header) +
    at(2, sgr('2', truncate(titleOf(route), width), '22')) +
    bodyText +
    at(Math.max(5, rows), sgr('2', footerLine(routeFooter(ROUTES[route.name].contexts, target.readOnly), width, ROUTES[route.name].contexts), '22')) +
    '\x1b[H'
  );
}
