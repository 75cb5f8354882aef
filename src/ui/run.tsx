// Runs the console once start.ts has taken the terminal and started connecting: render the app,
// let the screens' first loads wait for the connection, and give the terminal back however we leave.
// A switch of profile (`:profiles`) connects to the other target and gives the app a store made
// for it (live-console.ts); the terminal, the key dispatcher and this process stay.
import { render } from 'ink';
import { addCrashSecret, debugLogWriter, shortPath } from '../crash.js';
import type { RateLimitWait } from '../api/http.js';
import { archiveLocation, createConsoleStore, type ConsoleTarget, type ProfileSwitch, type Route, type SyncWorkerTarget } from '../store/index.js';
import { ApiOnceConnected, connect, traitsKeyOf, type Connection, type Target } from '../target.js';
import { lowerOtherThreads } from '../priority.js';
import { LiveApp } from './app.js';
import { ThemeProvider } from './hooks/theme-context.js';
import { LiveConsole, type OpenedConsole } from './live-console.js';
import { DEFAULT_ROUTES, ROUTES } from './screens/routes.js';
import { consoleTarget, shownTarget, type Started } from './start.js';

export async function runConsole(started: Started): Promise<number> {
  const { resolved, connecting, terminal } = started;
  // This thread draws and reads keys: V8's helper threads (busy with the sync worker's garbage
  // through a back-fill) yield to it, as the sandbox child and the sync worker do.
  lowerOtherThreads();
  const writeDebug = debugLogWriter();
  const debugLog = (line: string) => {
    const path = writeDebug(line);
    return path && shortPath(path);
  };
  const flash: (text: string, kind?: 'info' | 'error') => void = (text, kind) => live.store.getState().actions.flash(text, kind);
  const rateLimited = (w: RateLimitWait) => flash(`rate limited, retrying in ${Math.max(1, Math.ceil(w.waitMs / 1000))}s`);
  let failed: { err: unknown } | undefined;

  /** The store of one target, over its connection (made before it connects, for the first target). */
  const openOn = (connecting: Promise<Connection>, resolved: Target, target: ConsoleTarget, route: Route, profiles: ProfileSwitch): OpenedConsole => {
    // The archive's sync runs in a worker thread with a client of its own for the same service
    // (the current address of a restarted sandbox); its requests are logged and its 429 waits said
    // like the console's own.
    const syncWorker = async (): Promise<SyncWorkerTarget> => {
      const c = await connecting;
      return {
        baseUrl: c.api.baseUrl,
        apiKey: c.target.apiKey ?? '',
        traits: traitsKeyOf(c.target),
        debug: started.debugLog ? (line) => void writeDebug(line) : undefined,
        onRateLimited: rateLimited,
        concurrency: c.target.syncConcurrency,
      };
    };
    // The call archive of this profile: the call log opens from it before the service answers.
    const store = createConsoleStore(
      new ApiOnceConnected(connecting),
      { ...target, archive: archiveLocation(resolved) },
      { routes: ROUTES, initialRoute: route, debugLog, syncWorker, profiles },
    );
    const conn = connecting.then(
      (c) => {
        addCrashSecret(c.target.apiKey);
        // Keeps the cache dir and the archive's location (the list caches, the call archive).
        store.setState((s) => ({ target: { ...s.target, ...shownTarget(c.target.kind, c.target.profile, c.api.baseUrl, c.target.apiKey) } }));
        // The embedded sandbox's supervisor (src/target.ts) says what happened to it, and where it is now.
        c.onSandbox?.((e) => {
          const { flash } = store.getState().actions;
          if (e.kind === 'stopped') return flash(`The embedded sandbox stopped (${e.why}); restarting it on the same data dir…`, 'error');
          if (e.kind === 'restart-failed')
            return flash(`Could not restart the embedded sandbox: ${e.why}; trying again in ${Math.max(1, Math.ceil(e.retryInMs / 1000))}s`, 'error');
          store.setState((s) => ({ target: { ...s.target, ...shownTarget(c.target.kind, c.target.profile, e.url, c.target.apiKey) } }));
          flash(`The embedded sandbox is back (restarted in ${(e.ms / 1000).toFixed(1)}s)`);
        });
        return c;
      },
      (err: unknown) => {
        failed = { err }; // said after the terminal is back, as before the console started
        store.getState().actions.quit();
        return undefined;
      },
    );
    return { store, disconnect: async () => void (await (await conn)?.close()) };
  };

  const live = new LiveConsole(
    {
      readOnly: started.readOnly,
      // Connected before its store is shown: a profile that cannot be reached leaves the console where it was.
      async open(resolved, profiles) {
        const c = await connect({
          resolved,
          sandboxIn: 'child',
          debug: started.debugLog ? (line) => void writeDebug(line) : undefined,
          onRateLimited: rateLimited,
        });
        return openOn(Promise.resolve(c), resolved, consoleTarget(resolved, c.api.baseUrl), { name: 'assistants' }, profiles);
      },
    },
    (profiles) => openOn(connecting, resolved, started.target, started.route, profiles),
  );
  if (started.debugLog) flash(`--debug: each request is logged to ${started.debugLog}`);

  terminal.onQuitSignal(() => live.store.getState().actions.quit());
  started.onRateLimited(rateLimited);
  // An unhandled rejection becomes a flash (details in the debug log, see src/crash.ts); an uncaught exception ends the console.
  addCrashSecret(resolved.apiKey);
  terminal.reportCrashesTo((line) => flash(line, 'error'));
  try {
    // Ink's first frame waits for the first route's screen alone; the others load after it (a key for one waits until it is in).
    await DEFAULT_ROUTES.load(started.route.name);
    const app = render(
      <ThemeProvider palette={started.palette} capabilities={terminal.capabilities}>
        <LiveApp live={live} keymap={started.keymap} stop={terminal.stop} handOver={terminal.handOver} copy={terminal.copy} />
      </ThemeProvider>,
      {
        stdout: terminal.output,
        exitOnCtrlC: false,
        patchConsole: true,
        maxFps: 60,
        incrementalRendering: true,
      },
    );
    // Ink has drawn its first frame by now: the client's code and the other screens load after it.
    setImmediate(() => {
      started.firstFrameDrawn();
      void DEFAULT_ROUTES.loadAll().catch((err: unknown) => flash(`Could not load a screen: ${String(err)}`, 'error'));
    });
    await app.waitUntilExit();
  } finally {
    started.firstFrameDrawn(); // when the console ends before Ink drew, so the connection it closes can settle
    // The session index's last changes, written under its lock (milliseconds; a hung service does not delay it).
    await live.close(() => terminal.restore());
  }
  if (failed) throw failed.err;
  return 0;
}
