// The console's start, before React and Ink are loaded (they take a few hundred ms): resolve the
// target (a bad profile is refused before the terminal is taken), take the terminal (terminal.ts),
// draw the frame's chrome at once, start connecting (for the embedded sandbox: fork it now, so it
// loads on the other core while this process loads the UI), then load the UI and hand over to run.tsx.
//
// The first frame is the real chrome (header, breadcrumbs, key hints) from the same functions
// the Ink components use, and the route's loading line where its body goes: screen bodies,
// cached rows included, are drawn by Ink alone. Keys typed meanwhile wait in stdin for the app.
import { existsSync } from 'node:fs';
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
import { consoleCacheDir } from '../store/cached.js';
import { DEFAULT_ROUTES, LOADING } from './screens/routes.js';
import type { Keymap } from './keymap.js';
import { takeTerminal, type Terminal } from './terminal.js';
import { loadUserKeymap } from './keys-file.js';
import { loadTheme, sgrColor, THEMES, type Palette } from './theme.js';

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
  /** The keys: the routes', with the user's keys file's. */
  keymap: Keymap;
  /** The colours (the theme's): handed to every reader from here, never a module's state. */
  palette: Palette;
  terminal: Terminal;
  /** Where --debug writes, when it was given. */
  debugLog?: string;
  /** --read-only was given: a profile switched to is read-only too. */
  readOnly?: boolean;
  /** Who is told of each wait on a 429 from now on (the connection starts before the app is up). */
  onRateLimited(listener: (wait: RateLimitWait) => void): void;
  /** Says Ink's first frame is out (or that the console ends without one): the HTTP client's code loads only then. */
  firstFrameDrawn(): void;
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

export async function startConsole(opts: ConsoleOptions): Promise<number> {
  const config = await consoleConfig();
  const resolved = resolveTargetWith({ profile: opts.profile, readOnly: opts.readOnly }, () => config);
  // The user's keys (a mistake is refused here, before the terminal is taken): the keymap handed to every reader from now on.
  const keymap = await loadUserKeymap(DEFAULT_ROUTES.keymap);
  // The colours, likewise: a mistake in a theme file is refused before the terminal is taken.
  const palette = await loadTheme(opts.theme ?? config.theme);
  // Taken before Ink loads: colour and glyphs (the terminal's capabilities) are decided here, and the first frame is drawn with them.
  const terminal = takeTerminal({ color: opts.color, mouse: opts.mouse || config.mouse === true });
  const target = consoleTarget(resolved);
  const route = routeFrom(opts.initialRoute);
  terminal.write(chromeFrame(target, route, terminal.columns, terminal.rows, terminal.capabilities.color, keymap, DEFAULT_ROUTES, palette));
  // Connecting starts once the frame is out: forking the embedded sandbox holds this thread for
  // several milliseconds (the fork itself, the child's priority), which the chrome need not wait for.
  // The HTTP client's code (undici, the wire's schemas) waits for Ink's first frame: nothing on it
  // needs the client, and every request waits for the connection anyway.
  let drawn = (): void => undefined;
  const firstFrameDrawn = new Promise<void>((resolve) => (drawn = resolve));
  const debugLog = opts.debug ? debugLogPath() : undefined;
  let rateLimited: ((wait: RateLimitWait) => void) | undefined;
  const connecting = connect({
    resolved,
    sandboxIn: 'child',
    loadClientAfter: firstFrameDrawn,
    debug: debugLog ? debugLogWriter() : undefined,
    onRateLimited: (w) => rateLimited?.(w),
  });
  connecting.catch(() => undefined); // handled in run.tsx, which may attach a little later
  // Started only once the frame is out: from Node 24, import() reads and compiles the whole UI graph
  // (React, Ink, zod, the first screen) before it returns, which would hold the frame back that long.
  const run = await import('./run.js').catch((err: unknown) => {
    drawn();
    terminal.restore(); // so the line that says why is printed on the main screen, where it stays
    throw err;
  });
  return run.runConsole({
    resolved,
    connecting,
    target,
    route,
    keymap,
    palette,
    terminal,
    debugLog,
    readOnly: opts.readOnly,
    onRateLimited: (l) => void (rateLimited = l),
    firstFrameDrawn: drawn,
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

/**
 * The frame as the app draws it while connecting, less the screen's body: header, breadcrumbs, the
 * route's loading line, key hints; in the palette's colours when `color` is on.
 */
export function chromeFrame(
  target: ConsoleTarget,
  route: Route,
  columns: number,
  rows: number,
  color: boolean,
  keymap = DEFAULT_ROUTES.keymap,
  routes = DEFAULT_ROUTES,
  palette: Palette = THEMES.dark,
): string {
  const width = Math.max(20, columns);
  const sgr = (codes: string, text: string, reset: string) => (color ? `\x1b[${codes}m${text}\x1b[${reset}m` : text);
  const conn = CONNECTION_MARK.connecting;
  const onHeader = `${sgrColor(palette.headerText)};${sgrColor(palette.headerBg, true)}`;
  const header = color
    ? `\x1b[${onHeader}m${headerLeft(target, width)}\x1b[${sgrColor(palette[conn.color])}m${conn.mark}\x1b[${sgrColor(palette.headerText)}m connecting\x1b[0m`
    : `${headerLeft(target, width)}${conn.mark} connecting`;
  const at = (row: number, text: string) => `\x1b[${row};1H${text}`;
  const spec = routes.spec(route);
  // Rows as app.tsx lays them out with no bar, flash or dialog: header 2, body, flash 1, footer 1. The body is Ink's alone.
  return (
    '\x1b[?25l\x1b[2J' +
    at(1, header) +
    at(2, sgr('2', truncate(spec.title(route), width), '22')) +
    at(3, sgr('2', truncate(spec.firstFrame?.(route) ?? LOADING, width), '22')) +
    at(Math.max(5, rows), sgr('2', footerLine(keymap, routeFooter(keymap, spec.contexts, target.readOnly, true), width, spec.contexts), '22')) +
    '\x1b[H'
  );
}
