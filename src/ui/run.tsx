// Starts the console: connect (the embedded sandbox when nothing is configured), take over the
// terminal (alternate screen), render, and put the terminal back however we leave.
import { render } from 'ink';
import { connect } from '../target.js';
import { maskKey } from '../config/mask.js';
import { addCrashSecret, setCrashReporter } from '../crash.js';
import { createConsoleStore, type Route } from '../store/index.js';
import type { ConsoleTarget } from '../store/types.js';
import { App } from './app.js';

export interface ConsoleOptions {
  profile?: string;
  /** Open on this screen instead of Assistants (e.g. `switchboard chat` opens Chat). */
  initialRoute?: { screen: 'assistants' | 'numbers' | 'calls' | 'chat' | 'files'; assistantId?: string; sessionId?: string };
}

const ENTER_ALT = '\x1b[?1049h\x1b[H';
const LEAVE_ALT = '\x1b[?25h\x1b[?1049l'; // show the cursor, leave the alternate screen

function routeFrom(r: ConsoleOptions['initialRoute']): Route | undefined {
  if (!r) return undefined;
  if (r.screen === 'chat') return { name: 'chat', ...(r.sessionId ? { sessionId: r.sessionId } : {}), ...(r.assistantId ? { assistantId: r.assistantId } : {}) };
  return { name: r.screen };
}

export async function runConsole(opts: ConsoleOptions = {}): Promise<number> {
  const conn = await connect({ profile: opts.profile });
  const t = conn.target;
  const target: ConsoleTarget = { kind: t.kind, profile: t.profile, baseUrl: conn.api.baseUrl, maskedKey: t.apiKey ? maskKey(t.apiKey) : undefined };
  const store = createConsoleStore(conn.api, target, { initialRoute: routeFrom(opts.initialRoute) });

  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
    } catch {
      /* stdin already closed */
    }
    process.stdout.write(LEAVE_ALT);
  };
  const onSignal = () => store.getState().actions.quit();
  process.stdout.write(ENTER_ALT);
  process.on('exit', restore);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // An unexpected error becomes a flash (details in the debug log, see src/crash.ts), not an exit.
  addCrashSecret(t.apiKey);
  setCrashReporter((line) => store.getState().actions.flash(line, 'error'));
  try {
    const app = render(<App store={store} />, { exitOnCtrlC: false, patchConsole: true, maxFps: 30, incrementalRendering: true });
    await app.waitUntilExit();
  } finally {
    store.getState().actions.dispose();
    restore();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    setCrashReporter(undefined);
    await conn.close();
  }
  return 0;
}
