// A busy mark that blinks on and off for a refresh too quick to read is noise: show it only once
// the work has lasted SLOW_MS. The timer lives in the component that shows the mark, as the Spinner's does.
import { useEffect, useState } from 'react';

const SLOW_MS = 500;

/** True while `busy` has been true for `ms` or longer. */
export function useLasting(busy: boolean, ms = SLOW_MS): boolean {
  const [lasted, setLasted] = useState(false);
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setLasted(true), ms);
    return () => {
      clearTimeout(timer);
      setLasted(false);
    };
  }, [busy, ms]);
  return busy && lasted;
}
