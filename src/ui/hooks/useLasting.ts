// A busy mark that blinks on and off for a refresh too quick to read is noise: show it only once
// the work has lasted SLOW_MS. The timer lives in the component that shows the mark, as the Spinner's does,
// and its change waits for a key gap (useKeyGap.ts).
import { useEffect, useState } from 'react';
import { useKeyGap } from './useKeyGap.js';

const SLOW_MS = 500;

/** True while `busy` has been true for `ms` or longer. */
export function useLasting(busy: boolean, ms = SLOW_MS): boolean {
  const [lasted, setLasted] = useState(false);
  const inKeyGap = useKeyGap();
  useEffect(() => {
    if (!busy) return;
    // A change still waiting for its gap when the work ends is dropped: the next work waits its own ms.
    let current = true;
    const timer = setTimeout(() => inKeyGap(() => current && setLasted(true)), ms);
    return () => {
      current = false;
      clearTimeout(timer);
      setLasted(false);
    };
  }, [busy, ms, inKeyGap]);
  return busy && lasted;
}
