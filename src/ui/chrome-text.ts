// The text of the console's frame (header and key-hint footer) as plain functions of the state,
// shared by the Ink components (components/Chrome.tsx) and the first frame drawn before Ink has
// loaded (start.ts), so the two cannot drift apart.
import type { ConsoleTarget } from '../store/types.js';
import type { ConnectionState } from '../api/connection-state.js';
import { KEYMAP, bindingsFor, type KeyContext } from './keymap.js';
import { truncate } from './format.js';
import { cellWidth } from '../format/cells.js';

export const CONNECTION_MARK: Record<ConnectionState, { mark: string; color: 'green' | 'red' | 'yellow' }> = {
  online: { mark: '●', color: 'green' },
  offline: { mark: '●', color: 'red' },
  unauthorized: { mark: '●', color: 'red' },
  connecting: { mark: '○', color: 'yellow' },
  restarting: { mark: '○', color: 'yellow' },
};

/** The header's text before the connection mark, truncated to leave room for it. */
export function headerLeft(target: ConsoleTarget, width: number): string {
  const where = target.kind === 'sandbox' ? `sandbox ${target.baseUrl}` : `${target.baseUrl}${target.maskedKey ? ` (${target.maskedKey})` : ''}`;
  return truncate(`Switchboard │ ${where} │ profile ${target.profile} │ `, width - 14);
}

/** The footer's key hints for these contexts: the screen's own keys first (on a narrow terminal the global ones are the ones to drop). */
export function footerLine(contexts: readonly KeyContext[], width: number): string {
  const all = bindingsFor(contexts, { footerOnly: true });
  const isGlobal = (h: (typeof all)[number]) => KEYMAP[h.command].contexts.includes('global');
  const hints = [...all.filter((h) => !isGlobal(h)), ...all.filter(isGlobal)];
  let line = '';
  for (const h of hints) {
    const piece = `${h.keys} ${h.hint}`;
    if (cellWidth(line) + cellWidth(piece) + 3 > width) break;
    line += (line ? ' · ' : '') + piece;
  }
  return line;
}
