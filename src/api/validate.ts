// Checks on values the service expects in a particular form, so a form or a flag can say what is
// wrong before anything is sent.

/** What to tell someone whose number is not E.164. */
// The example first: it is what a cut line must keep.
export const E164_HINT = 'like +14155550123: a + and the country code, then the number, digits only';

/** E.164: a '+', a country code not starting with 0, at most 15 digits in all. */
export function isE164(number: string): boolean {
  return /^\+[1-9]\d{1,14}$/.test(number);
}
