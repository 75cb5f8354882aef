// The app shell: header, the screen on top of the stack, filter/palette line, flash, footer.
// Global keys (the routes' digits, :, /, ?, Esc, -, q) live here at the lowest priority, and the
// route on top's own keys from its spec (RouteKeys).
import { useCallback, useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { Box, Text, useApp, useStdout } from 'ink';
import { StoreProvider, topRoute, useActions, useConsole, useConsoleStore, useReadState, viewOf, type ConsoleStore, type Route } from '../store/index.js';
import { KeypressProvider, Priority, ScreenRouteContext, useWaitKeys } from './hooks/keypress.js';
import { TableAtProvider } from './hooks/table-at.js';
import { BindingsProvider, useBindings, type Bindings } from './hooks/bindings.js';
import { Command, type Keymap } from './keymap.js';
import { KeymapContext, RoutesContext, useKeymap, useRoutes } from './hooks/keymap-context.js';
import { FlashLine, Footer, Header } from './components/Chrome.js';
import { flashLines } from './chrome-text.js';
import { MIN_COLUMNS, MIN_ROWS } from './capabilities.js';
import { truncate } from '../format/display.js';
import { FilterBar, Palette } from './components/Palette.js';
import { ConfirmDialog, dialogHeight } from './components/ConfirmDialog.js';
import { DEFAULT_ROUTES, type RouteRegistry } from './screens/routes.js';
import { EditorContext, PagerContext, useEditText, usePager, type ShowText } from './hooks/useEditText.js';
import { CopyContext, useCopy } from './hooks/useCopy.js';
import { Selection, SelectionContext } from './hooks/selection.js';
import type { RouteUi } from './screens/route-spec.js';
import { editInEditor, showInPager } from './external-editor.js';
import type { EditText } from '../store/index.js';
import type { Terminal } from './terminal.js';
import type { LiveConsole } from './live-console.js';

type AppProps = {
  stop?: () => Promise<boolean>;
  handOver?: Terminal['handOver'];
  copy?: Terminal['copy'];
  /** The keys (the routes' and the user's keys file's, ui/start.ts); the routes' own when not given. */
  keymap?: Keymap;
  /** The routes (a test's may hold a route of its own); the console's when not given. */
  routes?: RouteRegistry;
};

/** The app on the store of the profile the console is on: a switch (live-console.ts) shows the new one's. */
export function LiveApp({ live, ...props }: AppProps & { live: LiveConsole }) {
  const store = useSyncExternalStore(live.subscribe, () => live.store);
  return <App store={store} {...props} />;
}

// Each store gets its own bindings and screens (remounted by key); the key dispatcher, and the keys queued in it, stay.
const storeIds = new WeakMap<ConsoleStore, number>();
let stores = 0;
function storeId(store: ConsoleStore): number {
  let id = storeIds.get(store);
  if (id === undefined) storeIds.set(store, (id = ++stores));
  return id;
}

/**
 * `stop` (the console's terminal, run.tsx) gives the terminal back and resolves once the console is in the foreground again;
 * `handOver` gives it to another program (the editor of `E`, the pager of `v`) and takes it back; `copy` sets the clipboard (the copy keys).
 */
export function App({ store, stop, handOver, copy, routes = DEFAULT_ROUTES, keymap = routes.keymap }: AppProps & { store: ConsoleStore }) {
  const { suspendTerminal } = useApp();
  // Ink clears its frame around `stop` (which pauses the keys' stdin, terminal.ts) and draws the whole frame after it.
  const suspend =
    stop &&
    (() => {
      let stopped = true;
      suspendTerminal(async () => void (stopped = await stop())).then(
        () => stopped || store.getState().actions.flash('Not suspended: no shell with job control here (nothing would fg it)', 'error'),
        (err: unknown) => store.getState().actions.flash(`Could not suspend: ${String(err)}`, 'error'),
      );
    });
  // The same path for the editor: the terminal leaves the alternate screen and raw mode and stdin pauses, the editor runs, all comes back.
  const edit = useMemo<EditText | undefined>(
    () =>
      handOver &&
      (async (text, fileName) => {
        let saved: string | undefined;
        await suspendTerminal(() => handOver(async () => void (saved = await editInEditor(text, fileName))));
        return saved ?? text;
      }),
    [handOver, suspendTerminal],
  );
  const page = useMemo<ShowText | undefined>(
    () => handOver && ((text) => suspendTerminal(() => handOver(() => showInPager(text)))),
    [handOver, suspendTerminal],
  );
  const readOnly = store.getState().target.readOnly === true;
  const refuseWrite = useMemo(
    () =>
      readOnly ? (hint: string) => store.getState().actions.flash(`Read-only: "${hint}" is a write and was refused; nothing was sent`, 'error') : undefined,
    [readOnly, store],
  );
  const sayDisabled = useMemo(() => (hint: string, reason: string) => store.getState().actions.flash(`"${hint}" is off: ${reason}`, 'error'), [store]);
  return (
    <RoutesContext.Provider value={routes}>
      <KeymapContext.Provider value={keymap}>
        <StoreProvider store={store}>
          <EditorContext.Provider value={edit}>
            <PagerContext.Provider value={page}>
              <CopyContext.Provider value={copy}>
                <KeypressProvider
                  onForceQuit={store.getState().actions.quit}
                  onSuspend={suspend}
                  onUnwantedPaste={() =>
                    store.getState().actions.flash('Nothing was pasted: a paste goes into a text input (/ filter, : command, a form field)')
                  }
                  onKeyDrawn={store.getState().actions.keyHandled}
                  onKeysDropped={(n) =>
                    store.getState().actions.flash(`${n === 1 ? '1 key' : `${n} keys`} typed ahead went unused: the screen they were for did not open`, 'error')
                  }
                  front={() => routes.viewKey(topRoute(store.getState()))}
                >
                  <BindingsProvider key={storeId(store)} refuseWrite={refuseWrite} sayDisabled={sayDisabled}>
                    <TableAtProvider>
                      <Shell />
                    </TableAtProvider>
                  </BindingsProvider>
                </KeypressProvider>
              </CopyContext.Provider>
            </PagerContext.Provider>
          </EditorContext.Provider>
        </StoreProvider>
      </KeymapContext.Provider>
    </RoutesContext.Provider>
  );
}

function Shell() {
  const actions = useActions();
  const routes = useRoutes();
  const keymap = useKeymap();
  const { exit } = useApp();
  const { stdout } = useStdout();
  const route = useConsole((s) => topRoute(s));
  const mode = useConsole((s) => s.mode);
  const dialog = useConsole((s) => s.dialog);
  const quitting = useConsole((s) => s.quitting);
  const filter = useConsole((s) => viewOf(s, routes.viewKey(topRoute(s))).filter);
  const columns = useConsole((s) => s.columns);
  const rows = useConsole((s) => s.rows);
  const flashShown = useConsole((s) => s.flash);
  const lastFlash = useConsole((s) => s.lastFlash);
  const depth = useConsole((s) => s.stack.length);
  const screen = routes.spec(route);
  const key = routes.viewKey(route);
  // What this screen has selected, for its route's keys: a new one for each route on top.
  const selection = useMemo(() => new Selection(), [key]); // eslint-disable-line react-hooks/exhaustive-deps -- one per view key

  useEffect(() => {
    const tty = stdout as NodeJS.WriteStream;
    const onResize = () => actions.resize(tty.columns || 80, tty.rows || 24);
    onResize();
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [stdout, actions]);

  useEffect(() => {
    if (quitting) exit();
  }, [quitting, exit]);

  // The global keys, on screens whose route has the 'global' context, in the route's contexts (a screen's own key for the same letter comes first).
  const global: Bindings = {
    // A route's digit opens it with no params (its spec's `jump`: a route whose params are all optional).
    ...Object.fromEntries(routes.jumps().map(([cmd, name]) => [cmd, () => actions.goTo({ name } as Route)])),
    [Command.Quit]: actions.quit,
    // Esc clears a filter first, then goes back; on a top-level screen with no filter it has nothing to do (and the footer does not offer it).
    [Command.Back]: (filter !== '' || depth > 1) && (() => (filter ? actions.setFilter('') : actions.back())),
    [Command.PreviousView]: actions.previousView,
    [Command.LastMessage]: () => {
      if (lastFlash) actions.push({ name: 'message', text: lastFlash.text });
      else actions.flash('No message yet');
    },
    [Command.Help]: () => actions.push({ name: 'help' }),
    [Command.Palette]: () => actions.setMode('command'),
    [Command.Filter]: () => actions.setMode('filter'),
  };
  useBindings(screen.contexts, global, { priority: Priority.Global, active: mode === 'normal' && screen.contexts.includes('global') });

  const width = Math.max(20, columns);
  const filters = keymap.binding(Command.Filter)!.contexts.some((c) => screen.contexts.includes(c));
  const showBar = mode === 'command' || mode === 'filter' || (filter !== '' && filters);
  // The frame is never taller than the window, or the terminal scrolls and the header is drawn
  // over (the dialog at 40×10 did that). The header (2 rows), the flash and the footer always
  // stay; the dialog comes before the screen, which shrinks to what is left (even to nothing).
  // Where `!` is text (a chat, a form), a long flash wraps whole instead of pointing at `!`.
  const bang = screen.contexts.includes('global');
  const room = Math.max(0, rows - 2 - flashLines(flashShown, width, bang).length - 1 - (showBar ? 1 : 0));
  const dialogRows = dialog ? Math.min(dialogHeight(dialog, width), room) : 0;
  const bodyHeight = room - dialogRows;
  useSyncExternalStore(routes.onLoaded, routes.loaded);
  const Screen = routes.screens[route.name];
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  return (
    <>
      {/* Hidden, not unmounted, while the window is too small: a form keeps what was typed. */}
      <Box flexDirection="column" width={width} height={rows} display={tooSmall ? 'none' : 'flex'}>
        <Header width={width} />
        <RouteKeys route={route} active={mode === 'normal'} selection={selection} />
        <Box height={bodyHeight} flexDirection="column" overflow="hidden" flexShrink={0}>
          <ScreenRouteContext.Provider value={key}>
            <SelectionContext.Provider value={selection}>
              {Screen ? <Screen key={key} route={route} width={width} height={Math.max(1, bodyHeight)} /> : <ScreenLoading name={route.name} />}
            </SelectionContext.Provider>
          </ScreenRouteContext.Provider>
        </Box>
        {dialog ? <ConfirmDialog width={width} height={dialogRows} /> : null}
        {mode === 'command' ? <Palette /> : showBar ? <FilterBar value={filter} editing={mode === 'filter'} /> : null}
        <FlashLine width={width} bang={bang} />
        <Footer route={key} contexts={screen.contexts} width={width} />
      </Box>
      {tooSmall ? (
        <Text wrap="truncate">{truncate(`Too small (${columns}×${rows}); needs ${MIN_COLUMNS}×${MIN_ROWS}. Resize, or q to quit`, Math.max(1, columns))}</Text>
      ) : null}
    </>
  );
}

/**
 * The body while the top route's component is still loading (run.tsx loads the first route's
 * before Ink's first frame, the others after it): keys wait, in order, for the screen they are for.
 */
function ScreenLoading({ name }: { name: Route['name'] }) {
  // Every key waits, q too: the screen may have a text input that takes it.
  useWaitKeys('waiting');
  // Code, not data: the component's chunk (already on its way after the first frame, or a test's render of <App>).
  const routes = useRoutes();
  useLayoutEffect(() => void routes.load(name), [routes, name]);
  return null;
}

/**
 * The route on top's own keys (its spec's `keys`), with their handlers, or `{ disabled }` with why
 * they are off. Outside the screen's route context: they are the spec's, not the screen's, so a
 * screen still loading still holds the keys typed ahead for it.
 */
function RouteKeys({ route, active, selection }: { route: Route; active: boolean; selection: Selection }) {
  const routes = useRoutes();
  const actions = useActions();
  const read = useReadState();
  const store = useConsoleStore();
  const copy = useCopy();
  const ui: RouteUi = { copy: (what, text) => copy(what, text)(), editText: useEditText(), page: usePager() };
  const spec = routes.spec(route);
  // The reasons as one string, over the store and what the screen has selected: this re-renders
  // when one comes or goes, not at every change of either.
  const reasons = useSyncExternalStore(
    useCallback(
      (changed: () => void) => {
        const offStore = store.subscribe(changed);
        const offSelection = selection.subscribe(changed);
        return () => {
          offStore();
          offSelection();
        };
      },
      [store, selection],
    ),
    () => {
      const selected = selection.get();
      // A screen that says so (a prompt of its own open, a chat starting in the list's place) has none of the route's keys now.
      if (selected?.keysOff) return 'off';
      if (!spec.keys) return '[]';
      return JSON.stringify([...routes.disabled(route, { state: read(), actions, selected })]);
    },
  );
  const keysOff = reasons === 'off';
  const off = new Map(keysOff ? [] : (JSON.parse(reasons) as [string, string][]));
  const bindings: Bindings = Object.fromEntries(
    // A key with no handler here is its screen's to bind.
    Object.entries(spec.keys ?? {}).flatMap(([command, k]) => {
      const run = k.run;
      if (!run) return [];
      return [[command, off.has(command) ? { disabled: off.get(command)! } : () => run({ route, state: read(), actions, selected: selection.get(), ui })]];
    }),
  );
  useBindings(spec.contexts, bindings, { priority: Priority.Screen, active: active && spec.keys !== undefined && !keysOff });
  return null;
}
