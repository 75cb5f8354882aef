// YAML that people write by hand (scenarios, assistants as code) made into values with a bound:
// an alias bomb (a few lines whose aliases expand to billions of nodes) is refused, and the
// refusal names the first alias, so the file's error reads file:line:col like every other.
import { parseDocument, visit, type Document } from 'yaml';

/** How many alias expansions a hand-written file may use. */
const MAX_ALIAS_COUNT = 100;

export class AliasBombError extends Error {
  override name = 'AliasBombError';
  constructor(readonly offset: number) {
    super(`aliases (*name) expand too many times (more than ${MAX_ALIAS_COUNT} copies); write the repeated parts out, or use fewer aliases`);
  }
}

/** The document as a JavaScript value; throws AliasBombError (with the first alias's offset) for an alias bomb. */
export function valueOf(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (!(err instanceof ReferenceError) || !/alias/i.test(err.message)) throw err;
    let offset = 0;
    visit(doc, {
      Alias(_key, node) {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    throw new AliasBombError(offset);
  }
}

/** A small hand-written settings file as a value; its first syntax error is thrown as one line. */
export function settingsValue(text: string): unknown {
  const doc = parseDocument(text);
  if (doc.errors.length) throw new Error(doc.errors[0].message.split('\n')[0]);
  return valueOf(doc);
}
