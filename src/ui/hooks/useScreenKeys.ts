// Screen-level key handling shared by lists and details: moves the cursor or scroll (stored per
// route, so it is restored on return) and hands any other command of the screen's contexts on.
import type { Key } from 'ink';
import { useActions } from '../../store/index.js';
import { Command, commandFor, type KeyContext } from '../keymap.js';
import { Priority, useHoldKeys, useKeypress } from './keypress.js';
import { tableBodyHeight } from '../components/Table.js';

/** For tables: `count` rows in a Table of `height` lines (its header included, as passed to <Table>). */
export function useListKeys(opts: {
  contexts: KeyContext[];
  count: number;
  height: number;
  active?: boolean;
  /** Loading its first rows: keys wait until they are in (a `j` typed ahead moves on them). */
  loading?: boolean;
  onCommand: (cmd: Command) => boolean | void;
}) {
  const actions = useActions();
  useHoldKeys(opts.loading ?? false);
  useKeypress(
    (input: string, key: Key) => {
      const cmd = commandFor(input, key, opts.contexts);
      if (cmd === undefined) return false;
      // The window the store keeps the cursor in is the rows the table shows, not its header.
      const rows = tableBodyHeight(opts.height);
      switch (cmd) {
        case Command.Up:
          actions.moveCursor(-1, opts.count, rows);
          return true;
        case Command.Down:
          actions.moveCursor(1, opts.count, rows);
          return true;
        case Command.Top:
          actions.setCursor(0, opts.count, rows);
          return true;
        case Command.Bottom:
          actions.setCursor(opts.count - 1, opts.count, rows);
          return true;
        case Command.PageUp:
          actions.moveCursor(-rows, opts.count, rows);
          return true;
        case Command.PageDown:
          actions.moveCursor(rows, opts.count, rows);
          return true;
        default:
          return opts.onCommand(cmd) === true;
      }
    },
    { priority: Priority.Screen, active: opts.active },
  );
}

/** For scrolled details: `lines` lines in `height` rows. */
export function useDetailKeys(
  opts: { contexts: KeyContext[]; lines: number; height: number; loading?: boolean; onCommand?: (cmd: Command) => boolean | void },
) {
  const actions = useActions();
  useHoldKeys(opts.loading ?? false);
  useKeypress(
    (input: string, key: Key) => {
      const cmd = commandFor(input, key, opts.contexts);
      if (cmd === undefined) return false;
      const max = Math.max(0, opts.lines - opts.height + 1);
      const page = Math.max(1, opts.height - 2);
      const by: Partial<Record<Command, number>> = {
        [Command.Up]: -1,
        [Command.Down]: 1,
        [Command.PageUp]: -page,
        [Command.PageDown]: page,
        [Command.Top]: -Infinity,
        [Command.Bottom]: Infinity,
      };
      const d = by[cmd];
      if (d !== undefined) {
        actions.scrollBy(Number.isFinite(d) ? d : d > 0 ? max : -max - 1, max);
        return true;
      }
      return opts.onCommand?.(cmd) === true;
    },
    { priority: Priority.Screen },
  );
}
