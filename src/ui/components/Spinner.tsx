import { useEffect, useState } from 'react';
import { Text } from 'ink';
import { useKeyGap } from '../hooks/useKeyGap.js';
import { useTheme } from '../hooks/theme-context.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A small spinner; its timer lives only while it is on screen, and turns it in a key gap (useKeyGap.ts). */
export function Spinner() {
  const theme = useTheme();
  const [i, setI] = useState(0);
  const inKeyGap = useKeyGap();
  useEffect(() => {
    const t = setInterval(() => inKeyGap(() => setI((n) => (n + 1) % FRAMES.length)), 120);
    return () => clearInterval(t);
  }, [inKeyGap]);
  return <Text color={theme.accent}>{FRAMES[i]}</Text>;
}
