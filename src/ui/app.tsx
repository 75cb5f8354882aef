// The app shell: header, the screen on top of the stack, filter/palette line, flash, footer.
// Global keys (screens 1-5, :, /, ?, Esc, -, q) live here at the lowest priority.
import { useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { Box, Text, useApp, useStdout } from 'ink';
import { StoreProvider, routeKey, topRoute, useActions, useConsole, viewOf, type ConsoleStore, type Route } from '../store/index.js';
import { KeypressProvider, Priority, useHoldKeys } from './hooks/keypress.js';
import { TableAtProvider } from './hooks/table-at.js';
import { BindingsProvider, ScreenRouteContext, useBindings, type Bindings } from './hooks/bindings.js';
import { Command, KEYMAP } from './keymap.js';
import { FlashLine, Footer, Header } from './components/Chrome.js';
import { flashLines } from './chrome-text.js';
import { MIN_COLUMNS, MIN_ROWS } from './capabilities.js';
import { truncate } from '../format/display.js';
import { FilterBar, Palette } from './components/Palette.js';
import { ConfirmDialog, dialogHeight } from './components/ConfirmDialog.js';
import { ROUTES, SCREENS, loadScreen, onScreenLoaded, screensLoaded } from './screens/routes.js';
import { EditorContext, PagerContext, type ShowText } from './hooks/useEditText.js';
import { CopyContext } from './hooks/useCopy.js';
import { editInEditor, showInPager } from './external-editor.js';
import type { EditText } from '../store/index.js';
import type { Terminal } from './terminal.js';
import type { LiveConsole } from './live-console.js';

const JUMPS: [Command, Route][] = [
  [Command.GoAssistants, { name: 'assistants' }],
  [Command.GoNumbers, { name: 'numbers' }],
  [Command.GoCalls, { name: 'calls' }],
  [Command.GoChat, { name: 'chat' }],
  [Command.GoFiles, { name: 'files' }],
];

type AppProps = { stop?: () => Promise<void>; handOver?: Terminal['handOver']; copy?: Terminal['copy'] };

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
export function App({ store, stop, handOver, copy }: AppProps & { store: ConsoleStore }) {
  const { suspendTerminal } = useApp();
  // Ink clears its frame around `stop` (which pauses the keys' stdin, terminal.ts) and draws the whole frame after it.
  const suspend =
    stop && (() => void suspendTerminal(stop).catch((err: unknown) => store.getState().actions.flash(`Could not suspend: ${String(err)}`, 'error')));
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
  return (
    <StoreProvider store={store}>
      <EditorContext.Provider value={edit}>
        <PagerContext.Provider value={page}>
          <CopyContext.Provider value={copy}>
            <KeypressProvider
              onForceQuit={store.getState().actions.quit}
              onSuspend={suspend}
              onUnwantedPaste={() => store.getState().actions.flash('Nothing was pasted: a paste goes into a text input (/ filter, : command, a form field)')}
              onKeyDrawn={store.getState().actions.keyHandled}
            >
              <BindingsProvider key={storeId(store)} refuseWrite={refuseWrite}>
                <TableAtProvider>
                  <Shell />
                </TableAtProvider>
              </BindingsProvider>
            </KeypressProvider>
          </CopyContext.Provider>
        </PagerContext.Provider>
      </EditorContext.Provider>
    </StoreProvider>
  );
}

function Shell() {
  const actions = useActions();
  const { exit } = useApp();
  const { stdout } = useStdout();
  const route = useConsole((s) => topRoute(s));
  const mode = useConsole((s) => s.mode);
  const dialog = useConsole((s) => s.dialog);
  const quitting = useConsole((s) => s.quitting);
  const filter = useConsole((s) => viewOf(s, routeKey(topRoute(s))).filter);
  const columns = useConsole((s) => s.columns);
  const rows = useConsole((s) => s.rows);
  const flashShown = useConsole((s) => s.flash);
  const lastFlash = useConsole((s) => s.lastFlash);
  const screen = ROUTES[route.name];

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
    ...Object.fromEntries(JUMPS.map(([cmd, to]) => [cmd, () => actions.goTo(to)])),
    [Command.Quit]: actions.quit,
    // Esc clears a filter first, then goes back.
    [Command.Back]: () => (filter ? actions.setFilter('') : actions.back()),
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
  const filters = KEYMAP[Command.Filter].contexts.some((c) => screen.contexts.includes(c));
  const showBar = mode === 'command' || mode === 'filter' || (filter !== '' && filters);
  // The frame is never taller than the window, or the terminal scrolls and the header is drawn
  // over (the dialog at 40×10 did that). The header (2 rows), the flash and the footer always
  // stay; the dialog comes before the screen, which shrinks to what is left (even to nothing).
  const room = Math.max(0, rows - 2 - flashLines(flashShown, width).length - 1 - (showBar ? 1 : 0));
  const dialogRows = dialog ? Math.min(dialogHeight(dialog, width), room) : 0;
  const bodyHeight = room - dialogRows;
  useSyncExternalStore(onScreenLoaded, screensLoaded);
  const Screen = SCREENS[route.name];
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  return (
    <>
      {/* Hidden, not unmounted, while the window is too small: a form keeps what was typed. */}
      <Box flexDirection="column" width={width} height={rows} display={tooSmall ? 'none' : 'flex'}>
        <Header width={width} />
        <Box height={bodyHeight} flexDirection="column" overflow="hidden" flexShrink={0}>
          <ScreenRouteContext.Provider value={routeKey(route)}>
            {Screen ? <Screen key={routeKey(route)} route={route} width={width} height={Math.max(1, bodyHeight)} /> : <ScreenLoading name={route.name} />}
          </ScreenRouteContext.Provider>
        </Box>
        {dialog ? <ConfirmDialog width={width} height={dialogRows} /> : null}
        {mode === 'command' ? <Palette /> : showBar ? <FilterBar value={filter} editing={mode === 'filter'} /> : null}
        <FlashLine width={width} />
        <Footer route={routeKey(route)} contexts={screen.contexts} width={width} />
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
  useHoldKeys(true);
  // Code, not data: the component's chunk (already on its way after the first frame, or a test's render of <App>).
  useLayoutEffect(() => void loadScreen(name), [name]);
  return null;
}
