// The console's start, before React and Ink are loaded (they take a few hundred ms): resolve the
// target (a bad profile is refused before the terminal is taken), start connecting (for the
// embedded sandbox: fork it now, so it loads on the other core while this process loads the UI),
// take the terminal and draw the frame's chrome at once, then hand over to run.tsx.
//
// The first frame is the real chrome (header, breadcrumbs, key hints) from the same functions
// the Ink components use; keys typed meanwhile wait in stdin for the app.
import { resolveTarget, type Target } from '../config/config.js';
import { maskKey } from '../config/mask.js';
import { connect, type Connection } from '../target.js';
import type { ConsoleTarget, Route } from '../store/types.js';
import { CONNECTION_MARK, footerLine, headerLeft } from './chrome-text.js';
import { truncate } from './format.js';
import { ROUTES, titleOf } from './screens/routes.js';

export interface ConsoleOptions {
  profile?: string;
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
  terminal: TerminalHold;
}

export interface TerminalHold {
  /** Leaves the alternate screen and raw mode; safe to call twice (also runs on exit). */
  restore(): void;
  /** Who handles SIGINT/SIGTERM/SIGHUP from now on (until then they restore and exit). */
  onQuitSignal(handler: (() => void) | undefined): void;
}

// Not Ink's alternateScreen option: Ink enters the alternate screen in render(), after React and
// Ink have loaded, and the chrome is drawn here before that; asked to as well, Ink would send
// ?1049h again on a screen already switched (which xterm defines as save the cursor, then clear).
const ENTER_ALT = '\x1b[?1049h\x1b[H';
const LEAVE_ALT = '\x1b[?25h\x1b[?1049l'; // show the cursor, leave the alternate screen
const QUIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function routeFrom(r: ConsoleOptions['initialRoute']): Route {
  if (!r) return { name: 'assistants' };
  if (r.screen === 'chat') return { name: 'chat', ...(r.sessionId ? { sessionId: r.sessionId } : {}), ...(r.assistantId ? { assistantId: r.assistantId } : {}) };
  return { name: r.screen };
}

export function shownTarget(kind: Target['kind'], profile: string, baseUrl: string, apiKey?: string): ConsoleTarget {
  return { kind, profile, baseUrl, maskedKey: apiKey ? maskKey(apiKey) : undefined };
}

export async function startConsole(opts: ConsoleOptions = {}): Promise<number> {
  const resolved = resolveTarget({ profile: opts.profile });
  const ui = import('./run.js');
  const connecting = connect({ resolved, sandboxIn: 'child', loadClientAfter: ui });
  connecting.catch(() => undefined); // handled in run.tsx, which may attach a little later
  const target = shownTarget(resolved.kind, resolved.profile, resolved.baseUrl ?? 'starting…', resolved.apiKey);
  const route = routeFrom(opts.initialRoute);
  const terminal = holdTerminal();
  process.stdout.write(chromeFrame(target, route, process.stdout.columns || 80, process.stdout.rows || 24, process.stdout.hasColors?.() ?? false));
  const { runConsole } = await ui;
  return runConsole({ resolved, connecting, target, route, terminal });
}

function holdTerminal(): TerminalHold {
  let restored = false;
  let quitHandler: (() => void) | undefined;
  const restore = () => {
    if (restored) return;
    restored = true;
    for (const s of QUIT_SIGNALS) process.off(s, onSignal);
    try {
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
    } catch {
      /* stdin already closed */
    }
    process.stdout.write(LEAVE_ALT);
  };
  function onSignal() {
    if (quitHandler) return quitHandler();
    restore();
    process.exit(0);
  }
  process.stdout.write(ENTER_ALT);
  // Raw now, so keys typed before the app is up are neither echoed nor lost (they wait in stdin).
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  process.on('exit', restore);
  for (const s of QUIT_SIGNALS) process.on(s, onSignal);
  return { restore, onQuitSignal: (h) => void (quitHandler = h) };
}

/** The frame's chrome as the app draws it while connecting: header, breadcrumbs, key hints. */
export function chromeFrame(target: ConsoleTarget, route: Route, columns: number, rows: number, color: boolean): string {
  const width = Math.max(20, columns);
  const sgr = (codes: string, text: string, reset: string) => (color ? `\x1b[${codes}m${text}\x1b[${reset}m` : text);
  const conn = CONNECTION_MARK.connecting;
  const header = color ? `\x1b[37;44m${headerLeft(target, width)}\x1b[33m${conn.mark}\x1b[37m connecting\x1b[0m` : `${headerLeft(target, width)}${conn.mark} connecting`;
  const at = (row: number, text: string) => `\x1b[${row};1H${text}`;
  return (
    '\x1b[?25l\x1b[2J' +
    at(1, header) +
    at(2, sgr('2', truncate(titleOf(route), width), '22')) +
    at(Math.max(5, rows), sgr('2', footerLine(ROUTES[route.name].contexts, width), '22')) +
    '\x1b[H'
  );
}
