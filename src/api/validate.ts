// Checks on values the service expects in a particular form, so a form or a flag can say what is
// wrong before anything is sent.

/** What to tell someone whose number is not E.164. */
export const E164_HINT = 'use international format: a + and the country code, then the number, digits only (like +14155550123)';

/** E.164: a '+', a country code not starting with 0, at most 15 digits in all. */
export function isE164(number: string): boolean {
  return /^\+[1-9]\d{1,14}$/.test(number);
}
