import { useEffect, useState } from 'react';
import { Text } from 'ink';
import { theme } from '../theme.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A small spinner; its timer lives only while it is on screen. */
export function Spinner() {
  const [i, setI] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setI((n) => (n + 1) % FRAMES.length), 120);
    return () => clearInterval(t);
  }, []);
  return <Text color={theme().accent}>{FRAMES[i]}</Text>;
}
