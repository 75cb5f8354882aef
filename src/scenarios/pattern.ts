// A scenario's `matches` pattern, run with a time budget: a pattern like (a+)+$ against a reply
// the service controls can backtrack for minutes, and a CI run must end. The match runs in a vm
// context whose timeout interrupts the regular expression engine mid-match.
import { createContext, runInContext, type Context } from 'node:vm';

/** How long one match may run before it counts as a failure. */
export const MATCH_BUDGET_MS = 500;

let context: Context | undefined;

/** Whether `text` matches `pattern` (flag i), or 'timeout' when the match ran past the budget. */
export function matchWithin(pattern: string, text: string, budgetMs = MATCH_BUDGET_MS): boolean | 'timeout' {
  context ??= createContext({ pattern: '', text: '' });
  context.pattern = pattern;
  context.text = text;
  try {
    return runInContext('new RegExp(pattern, "i").test(text)', context, { timeout: budgetMs }) as boolean;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    throw err;
  } finally {
    context.text = '';
  }
}
