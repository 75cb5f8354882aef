// A scrolling pick list (single or multi choice) with type-to-filter. Arrows move (j/k are text
// for the filter here), Enter chooses, Space toggles in multi mode, Ctrl-S saves, Esc cancels.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { Priority, useKeypress } from '../hooks/keypress.js';
import { Command, commandFor } from '../keymap.js';
import { scrollFor } from '../../store/navigation.js';
import { escapeLine } from '../../format/escape.js';
import { truncate } from '../../format/display.js';
import { capabilities } from '../capabilities.js';
import { markerOf } from './Table.js';

export interface PickItem {
  id: string;
  label: string;
  detail?: string;
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
  const [selected, setSelected] = useState(() => new Set(props.initialSelected ?? []));
  const [cursor, setCursor] = useState(() => Math.max(0, props.items.findIndex((i) => i.id === props.initialId)));
  const [scroll, setScroll] = useState(0);
  const q = filter.toLowerCase();
  const items = props.items.filter((i) => !q || i.label.toLowerCase().includes(q) || i.id.toLowerCase().includes(q) || i.detail?.toLowerCase().includes(q));
  const bodyHeight = Math.max(1, props.height - 3);
  const cur = Math.min(cursor, Math.max(0, items.length - 1));
  const move = (to: number) => {
    const c = Math.max(0, Math.min(items.length - 1, to));
    setCursor(c);
    setScroll((s) => scrollFor(c, s, bodyHeight));
  };

  useKeypress(
    (input, key) => {
      const cmd = commandFor(input, key, ['picker']);
      if (cmd === Command.Cancel) props.onCancel();
      else if (key.upArrow) move(cur - 1);
      else if (key.downArrow) move(cur + 1);
      else if (key.pageUp) move(cur - bodyHeight);
      else if (key.pageDown) move(cur + bodyHeight);
      else if (cmd === Command.Submit && props.multi) props.onChoose([...selected]);
      else if (props.multi && input === ' ' && items[cur]) {
        const next = new Set(selected);
        if (next.has(items[cur].id)) next.delete(items[cur].id);
        else next.add(items[cur].id);
        setSelected(next);
      } else if (cmd === Command.Choose) {
        if (props.multi) props.onChoose([...selected]);
        else if (items[cur]) props.onChoose([items[cur].id]);
      } else if (key.backspace || key.delete) setFilter((f) => f.slice(0, -1));
      else if (input && !key.ctrl && !key.meta) {
        setFilter((f) => f + input);
        move(0);
      } else return false;
      return true;
    },
    { priority: Priority.Overlay },
  );

  const marker = !capabilities().color;
  const top = Math.min(scroll, Math.max(0, items.length - bodyHeight));
  const visibleTop = cur < top ? cur : cur >= top + bodyHeight ? cur - bodyHeight + 1 : top;
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Text bold>{escapeLine(props.title)}</Text>
      <Text dimColor>
        {filter ? `filter: ${filter}` : 'type to filter'} · {props.multi ? 'Space toggle · Enter/Ctrl-S save' : 'Enter choose'} · Esc cancel
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
