// The copy keys (Y the id, # the number): app.tsx provides the terminal's OSC 52 write
// (terminal.ts copy, the one place that writes OSC); undefined where there is no terminal (component tests).
import { createContext, useContext } from 'react';
import { useActions } from '../../store/index.js';
import { escapeLine } from '../../format/escape.js';

export const CopyContext = createContext<((text: string) => boolean) | undefined>(undefined);

/** A key's handler that copies `text` (what it is in words: "id", "DID") and says so in the flash. */
export function useCopy(): (what: string, text: string | null | undefined) => () => void {
  const copy = useContext(CopyContext);
  const actions = useActions();
  return (what, text) => () => {
    if (!text) return actions.flash(`No ${what} to copy here`, 'error');
    if (!copy) return actions.flash('Nothing copied: the console has no terminal to copy with', 'error');
    // OSC 52 asks the terminal to set its clipboard; whether it did, nothing tells (tmux drops it unless
    // set-clipboard is on): the flash says what was sent, not that it was copied.
    if (copy(text)) actions.flash(`Sent the ${what} ${text} to the terminal's clipboard (OSC 52)`);
    else actions.flash(`Not copied: the ${what} "${escapeLine(text)}" is not a plain id`, 'error');
  };
}
