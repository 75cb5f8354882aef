// How commands report a write the service accepted (2xx) but whose answer held no readable record:
// a success with a note on stderr, never a failure (the exit code stays 0).
import type { Written } from '../api/contract.js';
import { unreadNote } from '../api/envelope.js';
import { writeErr } from './runtime.js';

/** Says on stderr what came back when it was not a record; `next` is the way to find the record. */
export function noteUnread(what: string, w: Written<unknown>, next?: string, warn: (line: string) => void = writeErr): void {
  if (!w.unread) return;
  warn(unreadNote(what, w.unread));
  if (!w.record && next) warn(next);
}
