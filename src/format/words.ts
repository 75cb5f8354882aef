// The words the commands and the console share for counts and states, so both say the same thing:
// "1 message", "3 messages"; a status flag is "active" or "inactive" everywhere.

/** "1 call", "2 calls", "0 calls"; `many` for irregular plurals. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** An assistant's or a number's status flag in words; empty when the service gave none. */
export function activeWord(status: boolean | null | undefined): string {
  return status == null ? '' : status ? 'active' : 'inactive';
}
