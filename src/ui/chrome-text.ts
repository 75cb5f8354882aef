// The text of the console's frame (header and key-hint footer) as plain functions of the state,
// shared by the Ink components (components/Chrome.tsx) and the first frame drawn before Ink has
// loaded (start.ts), so the two cannot drift apart.
import type { ConsoleTarget } from '../store/types.js';
import type { ConnectionState } from '../api/connection-state.js';
import { Command, Footer, keysOf, type CommandId, type KeyContext, type Keymap } from './keymap.js';
import { truncate, wrapText } from '../format/display.js';
import type { Flash } from '../store/ui.js';
import { cellWidth, truncateCells } from '../format/cells.js';
import { escapeLine } from '../format/escape.js';
import { sendsKeyInClear } from '../config/url.js';

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
  // A key sent over http:// to another host (allowed by the user) is said on every frame.
  const clear = target.kind !== 'sandbox' && sendsKeyInClear(target.baseUrl) ? 'UNENCRYPTED http │ ' : '';
  return truncate(`Switchboard │ ${target.readOnly ? 'READ-ONLY │ ' : ''}${clear}${where} │ profile ${target.profile} │ `, width - 14);
}

/**
 * The header's tail while the archive back-fills its history ("history 40% · back to 2026-03-02",
 * "syncing history…" before the share is known), in the `room` cells left after the connection:
 * the day goes first when it does not fit, then the whole tail (the target and connection matter more).
 */
export function historyTail(history: { back?: string; share?: number } | undefined, room: number): string {
  if (!history) return '';
  // Whole percent, never 100 before the back-fill has ended (the share is an estimate).
  const share = history.share === undefined ? 'syncing history…' : `history ${Math.min(99, Math.floor(history.share * 100))}%`;
  const back = history.back ? ` · back to ${escapeLine(history.back.slice(0, 10))}` : '';
  for (const text of [`${share}${back}`, share]) if (cellWidth(` │ ${text}`) <= room) return ` │ ${text}`;
  return '';
}

/**
 * What the footer shows on a route before its screen has bound its keys (the frame drawn before
 * Ink, the first commit): every footer key a key reaches in its contexts, as if all were enabled.
 */
export function routeFooter(keymap: Keymap, contexts: readonly KeyContext[], readOnly = false, topLevel = false): CommandId[] {
  return (
    keymap
      .bindingsFor(contexts, { reachable: true, footerOnly: true })
      .map((b) => b.command)
      // Esc has nowhere to go back to from a top-level screen (the app's binding is off there).
      .filter((c) => !(readOnly && keymap.writes(c)) && !(topLevel && c === Command.Back))
  );
}

/**
 * The footer's key hints for these commands (those bound and enabled in front, hooks/bindings.tsx),
 * the screen's own keys first, in table order: while they don't fit the width, the lowest-priority
 * hint goes (the keymap's `footer` priorities); `? help` and `: command` always stay. A command in
 * `disabled` is shown with why it is off ("S stats (no calls yet)").
 */
export function footerLine(
  keymap: Keymap,
  commands: readonly CommandId[],
  width: number,
  contexts: readonly KeyContext[] = [],
  disabled: ReadonlyMap<string, string> = NO_REASONS,
): string {
  const all = Object.entries(keymap.table).filter(([cmd, b]) => b.footer && commands.includes(cmd));
  const isGlobal = ([, b]: (typeof all)[number]) => b.contexts.includes('global');
  const hints = [...all.filter((h) => !isGlobal(h)), ...all.filter(isGlobal)].map(([cmd, b]) => ({
    footer: b.footer ?? 0,
    piece: `${keysOf(b, [...contexts, ...b.contexts])} ${b.hint}${disabled.has(cmd) ? ` (${escapeLine(disabled.get(cmd)!)})` : ''}`,
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

const NO_REASONS: ReadonlyMap<string, string> = new Map();

/** Lines a flash wraps onto, whole, on a screen where `!` is text (a chat's input, a form): nothing there opens it whole. */
const WHOLE_FLASH_LINES = 6;

/**
 * The flash's lines: one when it fits; a longer one is cut to two, the second ending in … and how
 * to open it whole (`!`), and when the whole text went to the debug log (store/ui.ts) the second line says where too.
 * Where `!` is no key (`bang` false: the screen has no global keys) it wraps whole onto up to six
 * lines instead; only a longer one is cut (ending in …), and then it says where its whole text is, if anywhere.
 */
export function flashLines(flash: Flash | null, width: number, bang = true): string[] {
  if (!flash) return [' '];
  // A flash is one message: a newline in it (from service text) is shown as a mark, never a line break; it wraps at the width.
  const text = escapeLine(flash.text);
  if (cellWidth(text) <= width) return [text];
  const lines = wrapText(text, width);
  if (!bang) {
    // Whole on the lines it has: nothing is cut, so nothing to read elsewhere.
    if (lines.length <= WHOLE_FLASH_LINES) return lines;
    const tail = flash.logged ? truncate(`full text in ${flash.logged}`, width) : undefined;
    const kept = lines.slice(0, WHOLE_FLASH_LINES - (tail ? 1 : 0));
    kept[kept.length - 1] = `${truncateCells(kept[kept.length - 1], width - 1).replace(/…$/, '')}…`;
    return tail ? [...kept, tail] : kept;
  }
  const more = (line: string) => `${truncateCells(line, width - 1).replace(/…$/, '')}…`;
  // A cut message says how to read it whole (`!`, the keymap's LastMessage).
  if (flash.logged) return [more(lines[0] ?? ''), truncate(`! shows it whole · full text in ${flash.logged}`, width)];
  const whole = ' (! shows it whole)';
  return lines.length <= 2 ? lines : [lines[0], `${truncateCells(lines[1], Math.max(1, width - cellWidth(whole) - 1)).replace(/…$/, '')}…${whole}`];
}
