// UI mode, flash line, confirm dialog and terminal size. The flash expires on a store timer,
// so no component owns a timeout.
import type { ConnectionState } from '../api/connection-state.js';
import type { SliceCreator } from './types.js';
import { cellWidth } from '../format/cells.js';
import { escapeLine } from '../format/escape.js';

/** normal: single-letter shortcuts live; command: the `:` palette; filter: typing into `/`; input: a form or dialog has the keys. */
type UiMode = 'normal' | 'command' | 'filter' | 'input';

export interface Flash {
  id: number;
  kind: 'info' | 'error';
  text: string;
  /** Where the whole text was written when it is longer than the flash line shows (the debug log). */
  logged?: string;
}

export interface ConfirmDialog {
  title: string;
  message: string;
  confirmLabel: string;
  /** The cursor starts on cancel: for what cannot be undone, Enter alone does nothing. */
  cancelFirst?: boolean;
  onConfirm: () => void | Promise<void>;
  /** Run on n, Esc or cancel. */
  onDecline?: () => void;
}

export interface UiState {
  mode: UiMode;
  /** The api's transport's state (src/api/connection-state.ts), mirrored for the header. */
  connectionState: ConnectionState;
  flash: Flash | null;
  /** The last flash, kept after it goes: `!` opens it whole. */
  lastFlash: Flash | null;
  dialog: ConfirmDialog | null;
  columns: number;
  rows: number;
  /** True until the app asked to quit; run.tsx unmounts when it flips. */
  quitting: boolean;
  /** What the `:` palette opens with (`s` on the call log opens it with "search "). */
  paletteSeed: string;
}

export interface UiActions {
  setMode(mode: UiMode): void;
  /** Opens the `:` palette with `seed` typed in. */
  openPalette(seed?: string): void;
  flash(text: string, kind?: Flash['kind']): void;
  clearFlash(): void;
  confirm(dialog: ConfirmDialog): void;
  /** Answers the open dialog: yes runs its onConfirm. */
  answerDialog(yes: boolean): Promise<void>;
  resize(columns: number, rows: number): void;
  quit(): void;
}

const FLASH_MS = 5000;

export const createUiSlice: SliceCreator<UiState, UiActions, UiState & { actions: UiActions }> = (set, get, deps) => {
  // The flash on screen: its expiry, and the last flash's id (an expiry clears only its own flash).
  const held: { timer?: ReturnType<typeof setTimeout>; seq: number } = { seq: 0 };
  deps.onDispose(() => {
    if (held.timer) clearTimeout(held.timer);
    held.timer = undefined;
  });
  return {
    state: {
      mode: 'normal',
      connectionState: deps.api.connectionState,
      flash: null,
      lastFlash: null,
      dialog: null,
      columns: 80,
      rows: 24,
      quitting: false,
      paletteSeed: '',
    },
    actions: {
      setMode(mode) {
        if (get().mode !== mode) set(mode === 'command' ? { mode, paletteSeed: '' } : { mode });
      },
      openPalette(seed = '') {
        set({ mode: 'command', paletteSeed: seed });
      },
      flash(text, kind = 'info') {
        const id = ++held.seq;
        // A flash shows one line; a longer one (or one of several lines) is written whole to the
        // debug log, and the flash says where.
        const long = text.includes('\n') || cellWidth(escapeLine(text)) > get().columns;
        const logged = long ? deps.debugLog?.(`${kind === 'error' ? 'error' : 'flash'}: ${text}`) : undefined;
        const shown = { id, kind, text, ...(logged ? { logged } : {}) };
        set({ flash: shown, lastFlash: shown });
        if (held.timer) clearTimeout(held.timer);
        held.timer = setTimeout(() => {
          held.timer = undefined;
          if (get().flash?.id === id) set({ flash: null });
        }, FLASH_MS);
        held.timer.unref?.();
      },
      clearFlash() {
        set({ flash: null });
      },
      confirm(dialog) {
        set({ dialog, mode: 'input' });
      },
      async answerDialog(yes) {
        const d = get().dialog;
        set({ dialog: null, mode: 'normal' });
        if (yes && d) await d.onConfirm();
        else d?.onDecline?.();
      },
      resize(columns, rows) {
        const s = get();
        if (s.columns !== columns || s.rows !== rows) set({ columns, rows });
      },
      quit() {
        set({ quitting: true });
      },
    },
  };
};
