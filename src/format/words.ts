// The words the commands and the console share for counts and states, so both say the same thing:
// "1 message", "3 messages"; a status flag is "active" or "inactive" everywhere.

/** "1 call", "2 calls", "1,000 calls"; `many` for irregular plurals. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}

/**
 * A whole number with thousands separators, as en-US writes it ("1,234,567"), without Intl: its
 * first use pays for ICU's start-up, which the first frame (a count in a status line) must
 * not. Anything else goes to toLocaleString.
 */
export function grouped(n: number): string {
  // eslint-disable-next-line no-restricted-properties -- the rare non-integer pays for ICU
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

/** An assistant's or a number's status flag in words; empty when the service gave none. */
export function activeWord(status: boolean | null | undefined): string {
  return status == null ? '' : status ? 'active' : 'inactive';
}
