// The console's editor for `E`: app.tsx builds it (Ink lets go of the screen and input, the
// terminal is handed over, ui/external-editor.ts runs $EDITOR) and screens pass it to the store's
// editAssistantAsCode. Undefined where there is no terminal to hand over (component tests).
import { createContext, useContext } from 'react';
import type { EditText } from '../../store/index.js';

export const EditorContext = createContext<EditText | undefined>(undefined);

export function useEditText(): EditText | undefined {
  return useContext(EditorContext);
}
