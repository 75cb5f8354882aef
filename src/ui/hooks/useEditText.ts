// The console's editor for `E`: app.tsx builds it (Ink lets go of the screen and input, the
// terminal is handed over, ui/external-editor.ts runs $EDITOR) and screens pass it to the store's
// editAssistantAsCode. The pager of `v` comes the same way. Undefined where there is no terminal to hand over (component tests).
import { createContext, useContext } from 'react';
import { useActions, type EditText } from '../../store/index.js';

export const EditorContext = createContext<EditText | undefined>(undefined);

export function useEditText(): EditText | undefined {
  return useContext(EditorContext);
}

/** Shows a text (escaped service text) in $PAGER, the terminal handed over meanwhile. */
export type ShowText = (text: string) => Promise<void>;

export const PagerContext = createContext<ShowText | undefined>(undefined);

/** Opens a text in the pager, or says why it cannot: a pager that fails is a flash, never a crash. */
export function usePager(): (text: () => string) => void {
  const page = useContext(PagerContext);
  const actions = useActions();
  return (text) => {
    if (!page) return actions.flash('No terminal to run a pager on', 'error');
    page(text()).catch((err: unknown) => actions.flash(`Could not open the pager: ${err instanceof Error ? err.message : String(err)}`, 'error'));
  };
}
