// The `:` command palette: the commands the route specs declare (:assistants :numbers :calls
// :search <text> :stats :chat :files :test [path] :help, each in its screen folder's spec.ts) and
// :ring [did] and :q, each by any prefix that names one command or by its alias (:a, :c …), most with an optional
// id (`:calls <id>` opens that call: a whole id, the short id a list shows (its end), or a name, with a pick
// list when it names several); Tab completes, and pressed again cycles through the commands that match.
import { useRef, useState } from 'react';
import { Text } from 'ink';
import { useActions, useConsole, useReadState, type ConsoleActions, type ConsoleState, type Route, type RouteName } from '../../store/index.js';
import { Priority } from '../hooks/keypress.js';
import { useBindings, useRefuseWrite } from '../hooks/bindings.js';
import { Command } from '../keymap.js';
import { TextInput } from './TextInput.js';
import { escapeLine } from '../../format/escape.js';
import { shortIdOf } from '../../format/short-id.js';
import { ROUTES } from '../screens/routes.js';
import type { PaletteCommand as RoutePaletteCommand } from '../screens/route-spec.js';
import { useTheme } from '../hooks/theme-context.js';

interface PaletteCommand extends Omit<RoutePaletteCommand<RouteName>, 'open'> {
  /** What the command opens; none: it runs `act`, or quits. */
  open?: (arg: string | undefined) => [Route, Route?];
  /** A command that does something rather than open a screen. */
  act?: (actions: ConsoleActions, arg: string | undefined) => void;
}

/** The palette's commands, in the order Tab offers them: each route's own (its spec's `palette`), then :ring and :quit. */
const PALETTE: PaletteCommand[] = [
  ...Object.values(ROUTES).flatMap((spec): PaletteCommand[] => (spec.palette ? [spec.palette as RoutePaletteCommand<RouteName>] : [])),
  // Demo traffic without a second terminal: the call log shows the call arrive.
  { name: 'ring', aliases: [], arg: '[did]', write: true, act: (actions, did) => void actions.ringSandbox(did) },
  { name: 'quit', aliases: ['q'] },
];

/** The commands a typed word could mean: its alias or full name exactly, else every name it starts. */
function paletteMatches(word: string): PaletteCommand[] {
  const w = word.toLowerCase();
  const exact = PALETTE.find((c) => c.name === w || c.aliases.includes(w));
  if (exact) return [exact];
  return PALETTE.filter((c) => c.name.startsWith(w));
}

/** What Tab offers for a typed word: the command its alias names first, then every name it starts. */
function tabMatches(word: string): PaletteCommand[] {
  const w = word.toLowerCase();
  const exact = PALETTE.filter((c) => c.aliases.includes(w));
  return [...exact, ...PALETTE.filter((c) => c.name.startsWith(w) && !exact.includes(c))];
}

/**
 * What a palette line means: the routes to open (a list, then maybe one of its records; `onTop`:
 * on top of the stack rather than in its place), quit, or an error. Exported for tests.
 */
export function parsePalette(
  line: string,
  state?: ConsoleState,
): { route: Route; then?: Route; onTop?: true } | { act: (actions: ConsoleActions) => void } | { quit: true } | { error: string } | { refused: string } {
  const [word = '', arg] = line.trim().replace(/^:/, '').split(/\s+/);
  const hits = word ? paletteMatches(word) : [];
  if (hits.length !== 1) {
    const all = PALETTE.map((c) => `:${c.name}`).join(' ');
    return { error: hits.length ? `:${word} could be ${hits.map((c) => ':' + c.name).join(' or ')}` : `Unknown command :${word} (try ${all})` };
  }
  const cmd = hits[0];
  if (cmd.write && state?.target.readOnly) return { refused: `:${cmd.name}` };
  const act = cmd.act;
  if (act) return { act: (actions) => act(actions, arg) };
  if (!cmd.open) return { quit: true };
  if (arg && !cmd.arg) return { error: `:${cmd.name} takes no argument` };
  const rest = line.trim().replace(/^:/, '').slice(word.length).trim();
  if (cmd.required && !(cmd.rest ? rest : arg)) return { error: cmd.required };
  let given = cmd.rest ? rest || undefined : arg;
  const found = given && state ? cmd.find?.(given, state) : undefined;
  if (found && found.items.length > 1) {
    const title = `${found.items.length} ${found.what}s match ${JSON.stringify(given)}`;
    return { route: cmd.open(undefined)[0], then: { name: 'pick', title, items: found.items, open: found.open } };
  }
  if (found && found.items.length === 1) given = found.items[0].id;
  // The whole list is held and nothing in it matches: say so, rather than ask the service for an id that is a name.
  else if (found?.complete) return { error: `No ${found.what} has the id or name ${JSON.stringify(given)} (:${cmd.name} <id, its start, or a name>)` };
  const [route, then] = cmd.open(given);
  return { route, ...(then ? { then } : {}), ...(cmd.onTop ? { onTop: true as const } : {}) };
}

/** While an argument is typed: the records it names so far (names, else ids), or what the argument is. */
function argumentHint(line: string, state: ConsoleState): string {
  const [word = '', ...rest] = line.trim().replace(/^:/, '').split(/\s+/);
  const hits = word ? paletteMatches(word) : [];
  const cmd = hits.length === 1 ? hits[0] : undefined;
  if (!cmd?.arg) return '';
  const arg = rest.join(' ');
  if (!arg) return `<${cmd.arg}>`;
  const found = cmd.find?.(arg, state);
  if (!found) return '';
  if (!found.items.length) return `no ${found.what} matches`;
  const shown = found.items.slice(0, 5).map((i) => escapeLine(i.label === i.id ? shortIdOf(i.id) : i.label));
  return shown.join(' · ') + (found.items.length > shown.length ? ` (+${found.items.length - shown.length})` : '');
}

/** Completes the first word to the single command it could mean, or to the longest common prefix. */
export function completePalette(line: string): string {
  if (line.includes(' ')) return line;
  const hits = tabMatches(line);
  if (hits.length === 0) return line;
  if (hits.length === 1) return hits[0].name + (hits[0].arg ? ' ' : '');
  let p: string = hits[0].name;
  for (const h of hits) while (!h.name.startsWith(p)) p = p.slice(0, -1);
  return p;
}

export function Palette() {
  const theme = useTheme();
  const seed = useConsole((s) => s.paletteSeed);
  const [line, setLine] = useState(seed);
  const columns = useConsole((s) => s.columns);
  // Tab again on what Tab last wrote cycles through the commands the typed word matched.
  const cycling = useRef<{ typed: string; at: number; wrote: string } | null>(null);
  const actions = useActions();
  const readState = useReadState();
  const refuseWrite = useRefuseWrite();
  const tab = () => {
    const c = cycling.current;
    if (c && c.wrote === line) {
      const hits = tabMatches(c.typed);
      const at = (c.at + 1) % hits.length;
      const wrote = hits[at].name;
      cycling.current = { typed: c.typed, at, wrote };
      setLine(wrote);
      return;
    }
    const done = completePalette(line);
    const hits = line.includes(' ') ? [] : tabMatches(line);
    if (done !== line || hits.length < 2) {
      cycling.current = hits.length > 1 ? { typed: line, at: -1, wrote: done } : null;
      setLine(done);
      return;
    }
    // Nothing more in common: the first match, then the next on each Tab.
    cycling.current = { typed: line, at: 0, wrote: hits[0].name };
    setLine(hits[0].name);
  };
  const run = () => {
    actions.setMode('normal');
    const r = parsePalette(line, readState());
    if ('refused' in r) refuseWrite?.(r.refused);
    else if ('quit' in r) actions.quit();
    else if ('act' in r) r.act(actions);
    else if ('error' in r) actions.flash(r.error, 'error');
    else if (r.onTop) actions.pushOrReplace(r.route);
    else {
      actions.goTo(r.route);
      if (r.then) actions.push(r.then);
    }
  };
  // Modal: the line has the printable keys, and no other key reaches the screen under it.
  useBindings(
    ['palette'],
    { [Command.Cancel]: () => actions.setMode('normal'), [Command.Complete]: tab, [Command.Accept]: run },
    { priority: Priority.Overlay, modal: true },
  );
  const word = line.trim();
  const hint =
    word && !line.includes(' ')
      ? tabMatches(word)
          .filter((c) => c.name !== word)
          .map((c) => c.name)
          .join(' ')
      : argumentHint(line, readState());
  return (
    <Text>
      <Text color={theme.warning}>:</Text>
      <TextInput value={line} onChange={setLine} focus width={Math.max(10, columns - 2 - Math.min(hint.length + 1, Math.floor(columns / 2)))} />
      <Text dimColor> {hint}</Text>
    </Text>
  );
}

export function FilterBar({ value, editing }: { value: string; editing: boolean }) {
  const theme = useTheme();
  const actions = useActions();
  const columns = useConsole((s) => s.columns);
  // Esc clears the filter and leaves it; Enter leaves it, kept. The list's moves still reach the list.
  useBindings(
    ['prompt'],
    {
      [Command.Cancel]: () => {
        actions.setFilter('');
        actions.setMode('normal');
      },
      [Command.Accept]: () => actions.setMode('normal'),
    },
    { priority: Priority.Overlay, active: editing },
  );
  return (
    <Text>
      <Text color={theme.warning}>/</Text>
      <TextInput value={value} onChange={actions.setFilter} focus={editing} width={Math.max(10, columns - 2)} />
      {!editing ? <Text dimColor> (/ edit, Esc in filter clears)</Text> : null}
    </Text>
  );
}
