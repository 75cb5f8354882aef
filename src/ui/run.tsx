// Starts the console: take over the terminal (alternate screen), render, connect (the embedded
// sandbox when nothing is configured) while the first frame is on screen, and put the terminal
// back however we leave.
import { render } from 'ink';
import type { VoiceAgentApi } from '../api/contract.js';
import { resolveTarget } from '../config/config.js';
import { connect, type Connection } from '../target.js';
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

/** The api once `connecting` settles: each call waits for the connection (or fails as it did). */
function whenConnected(connecting: Promise<Connection>): VoiceAgentApi {
  return new Proxy({} as VoiceAgentApi, {
    get(_, prop) {
      if (prop === 'then') return undefined; // not a thenable
      return (...args: unknown[]) => connecting.then((c) => (c.api[prop as keyof VoiceAgentApi] as (...a: unknown[]) => unknown)(...args));
    },
  });
}

export async function runConsole(opts: ConsoleOptions = {}): Promise<number> {
  // Resolved first (synchronous, cheap) so a bad profile is refused before the terminal is taken.
  const resolved = resolveTarget({ profile: opts.profile });
  // Starting the sandbox or loading the http client takes a few hundred ms: draw the shell
  // meanwhile ("connecting"), and let the screens' first loads wait for the connection.
  const connecting = connect({ profile: opts.profile, sandboxIn: 'child' });
  const shown = (kind: typeof resolved.kind, profile: string, baseUrl: string, apiKey?: string): ConsoleTarget => ({ kind, profile, baseUrl, maskedKey: apiKey ? maskKey(apiKey) : undefined });
  const target = shown(resolved.kind, resolved.profile, resolved.baseUrl ?? 'starting…', resolved.apiKey);
  const store = createConsoleStore(whenConnected(connecting), target, { initialRoute: routeFrom(opts.initialRoute) });
  let failed: { err: unknown } | undefined;
  const conn = connecting.then(
    (c) => {
      addCrashSecret(c.target.apiKey);
      store.setState({ target: shown(c.target.kind, c.target.profile, c.api.baseUrl, c.target.apiKey) });
      return c;
    },
    (err: unknown) => {
      failed = { err }; // said after the terminal is back, as before the console started
      store.getState().actions.quit();
      return undefined;
    },
  );

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
  addCrashSecret(resolved.apiKey);
  setCrashReporter((line) => store.getState().actions.flash(line, 'error'));
  try {
    const app = render(<App store={store} />, { exitOnCtrlC: false, patchConsole: true, maxFps: 60, incrementalRendering: true });
    await app.waitUntilExit();
  } finally {
    store.getState().actions.dispose();
    restore();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    setCrashReporter(undefined);
    await (await conn)?.close();
  }
  if (failed) throw failed.err;
  return 0;
}
