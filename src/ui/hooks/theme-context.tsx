// The palette and what the terminal can show reach components through context, as the keymap
// does (keymap-context.tsx): made once at start (ui/start.ts loads the theme, terminal.ts decides
// the capabilities) and handed down by run.tsx; a test gives its own (test/support/ink.ts). Never
// a module's state set from outside: two consoles in one process each draw in their own colours.
import { createContext, useContext, type ReactNode } from 'react';
import { COLOURLESS, THEMES, type Palette } from '../theme.js';
import { FULL_CAPABILITIES, type Capabilities } from '../capabilities.js';

const ThemeContext = createContext<Palette>(THEMES.dark);
const CapabilitiesContext = createContext<Capabilities>(FULL_CAPABILITIES);

/** The console's look for everything under it: its theme's colours, or none when the terminal has no colour. */
export function ThemeProvider({ palette, capabilities, children }: { palette: Palette; capabilities: Capabilities; children?: ReactNode }) {
  return (
    <CapabilitiesContext.Provider value={capabilities}>
      <ThemeContext.Provider value={capabilities.color ? palette : COLOURLESS}>{children}</ThemeContext.Provider>
    </CapabilitiesContext.Provider>
  );
}

/** The colours to draw in: the theme's, every one blank without colour (NO_COLOR wins over a theme). */
export function useTheme(): Palette {
  return useContext(ThemeContext);
}

/** What the terminal can show (a list marks its selected row with a column when there is no colour). */
export function useCapabilities(): Capabilities {
  return useContext(CapabilitiesContext);
}
