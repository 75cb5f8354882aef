// The text of the console's frame (header and key-hint footer) as plain functions of the state,
// shared by the Ink components (components/Chrome.tsx) and the first frame drawn before Ink has
// loaded (start.ts), so the two cannot drift apart.
import type { ConsoleTarget } from '../store/types.js';
import type { ConnectionState } from '../api/connection-state.js';
import { Footer, KEYMAP, bindingsFor, keysOf, type Binding, type Command, type KeyContext } from './keymap.js';
import { truncate, wrapText } from '../format/display.js';
import type { Flash } from '../store/ui.js';
import { cellWidth, truncateCells } from '../format/cells.js';
import { escapeLine } from '../format/escape.js';

/** Each connection state's mark and its colour's name in the theme (theme.ts). */
export const CONNECTION_MARK: Record<ConnectionState, { mark: string; color: 'good' | 'error' | 'warning' }> = {
  online: { mark: '●', color: 'good' },
  offline: { mark: '●', color: 'error' },
  unauthorized: { mark: '●', color: 'error' },
  connecting: { mark: '○', color: 'warning' },
  restarting: { mark: '○', color: 'warning' },
};

/** The header's text before the connection mark, truncated to leave room for it. */
export function headerLeft(target: ConsoleTarget, width: number): string {
  const where = target.kind === 'sandbox' ? `sandbox ${target.baseUrl}` : `${target.baseUrl}${target.maskedKey ? ` (${target.maskedKey})` : ''}`;
  return truncate(`Switchboard │ ${target.readOnly ? 'READ-ONLY │ ' : ''}${where} │ profile ${target.profile} │ `, width - 14);
}

/**
 * What the footer shows on a route before its screen has bound its keys (the frame drawn before
 * Ink, the first commit): every footer key a key reaches in its contexts, as if all were enabled.
 */
export function routeFooter(contexts: readonly KeyContext[], readOnly = false): Command[] {
  return bindingsFor(contexts, { reachable: true, footerOnly: true })
    .map((b) => b.command)
    .filter((c) => !(readOnly && KEYMAP[c].write));
}

/**
 * The footer's key hints for these commands (those bound and enabled in front, hooks/bindings.tsx),
 * the screen's own keys first, in table order: while they don't fit the width, the lowest-priority
 * hint goes (the keymap's `footer` priorities); `? help` and `: command` always stay.
 */
export function footerLine(commands: readonly Command[], width: number, contexts: readonly KeyContext[] = []): string {
  const all = (Object.entries(KEYMAP) as [Command, Binding][]).filter(([cmd, b]) => b.footer && commands.includes(cmd));
  const isGlobal = ([, b]: (typeof all)[number]) => b.contexts.includes('global');
  const hints = [...all.filter((h) => !isGlobal(h)), ...all.filter(isGlobal)].map(([, b]) => ({
    footer: b.footer ?? 0,
    piece: `${keysOf(b, [...contexts, ...b.contexts])} ${b.hint}`,
  }));
  const SEP = ' · ';
  const widthOf = (hs: typeof hints) => hs.reduce((n, h, i) => n + cellWidth(h.piece) + (i ? SEP.length : 0), 0);
  while (widthOf(hints) > width) {
    let drop = -1;
    for (let i = 0; i < hints.length; i++) if (hints[i].footer < Footer.Always && (drop < 0 || hints[i].footer <= hints[drop].footer)) drop = i;
    if (drop < 0) break;
    hints.splice(drop, 1);
  }
  return truncate(hints.map((h) => h.piece).join(SEP), width);
}

/**
 * The flash's lines: one when it fits; a longer one is cut to two, the second ending in … and how
 * to open it whole (`!`), and when the whole text went to the debug log (store/ui.ts) the second line says where too.
 */
export function flashLines(flash: Flash | null, width: number): string[] {
  if (!flash) return [' '];
  if (!flash.text.includes('\n') && cellWidth(escapeLine(flash.text)) <= width) return [escapeLine(flash.text)];
  const lines = wrapText(flash.text, width);
  const more = (line: string) => `${truncateCells(line, width - 1).replace(/…$/, '')}…`;
  // A cut message says how to read it whole (`!`, the keymap's LastMessage).
  if (flash.logged) return [more(lines[0] ?? ''), truncate(`! shows it whole · full text in ${flash.logged}`, width)];
  const whole = ' (! shows it whole)';
  return lines.length <= 2 ? lines : [lines[0], `${truncateCells(lines[1], Math.max(1, width - cellWidth(whole) - 1)).replace(/…$/, '')}…${whole}`];
}
