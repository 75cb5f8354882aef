// Writes the console must not repeat by accident (an outbound call, a new assistant): when an
// attempt ended without a clear answer, what it returned is kept, and the next attempt of that
// kind is sent only after a confirmation that says it (see the outbound and create forms).
import type { UnreadAnswer } from '../api/contract.js';
import { RequestError, failure } from '../api/errors.js';

/** What an attempt returned when it may have happened, for the confirmation; null for a clear no. */
export function uncertainAfterError(err: unknown): string | null {
  if (!(err instanceof RequestError) || !err.mayHaveActed) return null;
  return `got no clear answer (${failure(err).message})`;
}

/** What an accepted attempt returned when its answer held no record. */
export function uncertainAfterUnread(unread: UnreadAnswer): string {
  const said = unread.said ? `"${unread.said}"` : 'an empty body';
  return `was accepted (${unread.status}: ${said}) but its answer held no record to show`;
}
