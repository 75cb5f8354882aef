// A scrolling pick list (single or multi choice) with a filter. j/k and the arrows move, as in the
// lists; `/` or any other letter starts the filter, where every printable key is text until Enter
// or Esc ends it (the arrows still move). Enter chooses (in multi mode it saves the marked set, but
// while filtering it only ends the filter), Space toggles in multi mode (not while filtering), Ctrl-S saves, Esc cancels.
import { useState } from 'react';
import { Box, Text, type Key } from 'ink';
import { Priority } from '../hooks/keypress.js';
import { useBindings } from '../hooks/bindings.js';
import { Command, typedText } from '../keymap.js';
import { scrollFor } from '../../store/navigation.js';
import { useOptionalActions } from '../../store/index.js';
import { escapeLine } from '../../format/escape.js';
import { truncate } from '../../format/display.js';
import { useCapabilities } from '../hooks/theme-context.js';
import { markerOf } from './Table.js';

export interface PickItem {
  id: string;
  label: string;
  detail?: string;
}

/**
 * The items the filter keeps, best match first: the typed text is a name more often than a piece of
 * an id, and ids are hex, so "e2e" or "bad" can sit inside one that is listed above the name meant.
 * A name's start, then anywhere in a name, then an id's start, then anywhere else; the list's own
 * order within each.
 */
function matching(items: PickItem[], filter: string): PickItem[] {
  const q = filter.toLowerCase();
  if (!q) return items;
  const rank = (i: PickItem) => {
    const label = i.label.toLowerCase();
    if (label.startsWith(q)) return 0;
    if (label.includes(q)) return 1;
    const id = i.id.toLowerCase();
    if (id.startsWith(q)) return 2;
    return id.includes(q) || i.detail?.toLowerCase().includes(q) ? 3 : -1;
  };
  return items
    .map((item) => ({ item, rank: rank(item) }))
    .filter((m) => m.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .map((m) => m.item);
}

export function Picker(props: {
  title: string;
  items: PickItem[];
  width: number;
  height: number;
  multi?: boolean;
  initialSelected?: string[];
  initialId?: string;
  onChoose: (ids: string[]) => void;
  onCancel: () => void;
}) {
  const [filter, setFilter] = useState('');
  const [filtering, setFiltering] = useState(false);
  const [selected, setSelected] = useState(() => new Set(props.initialSelected ?? []));
  const [cursor, setCursor] = useState(() =>
    Math.max(
      0,
      props.items.findIndex((i) => i.id === props.initialId),
    ),
  );
  const [scroll, setScroll] = useState(0);
  const items = matching(props.items, filter);
  const bodyHeight = Math.max(1, props.height - 3);
  const cur = Math.min(cursor, Math.max(0, items.length - 1));
  const move = (to: number) => {
    const c = Math.max(0, Math.min(items.length - 1, to));
    setCursor(c);
    setScroll((s) => scrollFor(c, s, bodyHeight));
  };

  const item = items[cur];
  const dropLast = () => setFilter((f) => f.slice(0, -1));
  const type = (text: string) => {
    setFiltering(true);
    setFilter((f) => f + text);
    move(0);
  };
  // While filtering, a key that is also a command here (j, k) is the text it types.
  const orType = (run: () => void) => (input: string, key: Key) => {
    const text = filtering ? typedText(input, key) : '';
    if (text) type(text);
    else run();
  };
  const actions = useOptionalActions();
  // Modal; the printable keys no command takes type the filter. `:` opens the palette, as on every
  // screen (k9s), unless the filter is being typed: then `:` and `/` are off (the footer leaves them
  // out) and type; the other global keys (q, digits) type here.
  useBindings(
    ['picker', 'global'],
    {
      [Command.Palette]: actions && !filtering && (() => actions.setMode('command')),
      [Command.Cancel]: filtering ? () => (setFiltering(false), setFilter(''), move(0)) : props.onCancel,
      [Command.Filter]: !filtering && (() => setFiltering(true)),
      [Command.PreviousItem]: orType(() => move(cur - 1)),
      [Command.NextItem]: orType(() => move(cur + 1)),
      [Command.PageUp]: () => move(cur - bodyHeight),
      [Command.PageDown]: () => move(cur + bodyHeight),
      [Command.Submit]: props.multi && (() => props.onChoose([...selected])),
      // Off while the filter is typed, as on a form's text field: Space is text there, → would mark
      // a row the filter may hide next, and the footer and help offer no toggle.
      [Command.Toggle]:
        props.multi &&
        !filtering &&
        (() => {
          if (!item) return;
          const next = new Set(selected);
          if (next.has(item.id)) next.delete(item.id);
          else next.add(item.id);
          setSelected(next);
        }),
      // Multi: Enter saves exactly the marked set; while filtering it only ends the filter, so a mark is never skipped unseen.
      [Command.Choose]: props.multi ? () => (filtering ? setFiltering(false) : props.onChoose([...selected])) : item && (() => props.onChoose([item.id])),
      [Command.DeleteBefore]: dropLast,
      [Command.DeleteAt]: dropLast,
    },
    {
      priority: Priority.Overlay,
      modal: true,
      onText: type,
    },
  );

  const marker = !useCapabilities().color;
  const chooseWords = props.multi ? `Space toggle · Enter/Ctrl-S save (${selected.size} marked)` : 'Enter choose';
  const top = Math.min(scroll, Math.max(0, items.length - bodyHeight));
  const visibleTop = scrollFor(cur, top, bodyHeight);
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Text bold>{escapeLine(props.title)}</Text>
      <Text dimColor>
        {filtering
          ? `filter: ${filter}▏ · Enter ${props.multi ? 'done' : 'choose'} · Esc clear`
          : `${filter ? `filter: ${filter} · ` : ''}j/k move · / filter · ${chooseWords} · Esc cancel`}
      </Text>
      {items.length === 0 ? <Text dimColor>Nothing matches.</Text> : null}
      {items.slice(visibleTop, visibleTop + bodyHeight).map((it, i) => {
        const idx = visibleTop + i;
        const mark = props.multi ? (selected.has(it.id) ? '[x] ' : '[ ] ') : '';
        return (
          <Text key={it.id} inverse={idx === cur} wrap="truncate">
            {truncate(`${marker ? markerOf(idx === cur) : ''}${mark}${it.label}${it.detail ? `  ${it.detail}` : ''}`, props.width)}
          </Text>
        );
      })}
    </Box>
  );
}
