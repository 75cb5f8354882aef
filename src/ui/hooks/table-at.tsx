// Where the list in view is drawn, for a click (--mouse): the Table in front records its node,
// scroll and cursor here; a click's row is then found from Ink's layout at the moment it comes,
// and the screen's list keys move the cursor there (useListKeys).
import { createContext, useContext, useRef, type ReactNode } from 'react';
import type { DOMElement } from 'ink';

interface Drawn {
  node: DOMElement | null;
  scroll: number;
  cursor: number;
}

const TableAtContext = createContext<{ current: Drawn | null } | null>(null);

export function TableAtProvider({ children }: { children: ReactNode }) {
  const drawn = useRef<Drawn | null>(null);
  return <TableAtContext.Provider value={drawn}>{children}</TableAtContext.Provider>;
}

/** For Table: the ref its box takes, with what it shows now. */
export function useTableAt(scroll: number, cursor: number): (node: DOMElement | null) => void {
  const holder = useContext(TableAtContext);
  return (node) => {
    if (!holder) return;
    if (node) holder.current = { node, scroll, cursor };
    else if (holder.current?.node && !holder.current.node.parentNode) holder.current = null;
  };
}

/** How far from the cursor the row at screen row `y` (from 1) is, or undefined when `y` is on no row of the table in view. */
export function useClickedRow(): (y: number) => number | undefined {
  const holder = useContext(TableAtContext);
  return (y) => {
    const drawn = holder?.current;
    if (!drawn?.node?.yogaNode) return undefined;
    let top = 0;
    for (let n: DOMElement | undefined = drawn.node; n; n = n.parentNode) top += n.yogaNode?.getComputedTop() ?? 0;
    const row = y - 1 - top - 1; // the table's first line is its header
    const rows = drawn.node.childNodes.length - 1;
    if (row < 0 || row >= rows) return undefined;
    return drawn.scroll + row - drawn.cursor;
  };
}
