// YAML that people write by hand (scenarios, assistants as code) made into values with a bound:
// an alias bomb (a few lines whose aliases expand to billions of nodes) is refused, and the
// refusal names the first alias, so the file's error reads file:line:col like every other.
import { parseDocument, visit, type Document, type ToStringOptions } from 'yaml';

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

// What YAML leaves raw in any scalar style but a terminal obeys when the file is shown with cat
// or a diff: DEL, C1 (U+009B is a CSI), the bidi controls and U+2028/U+2029. (C0 it escapes.)
const TERMINAL_RAW = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/**
 * A document as text that is inert on a terminal, for every file Switchboard writes from service
 * text (assistants as code, scenarios, snapshots): strings holding TERMINAL_RAW are double-quoted
 * with those characters as \u escapes (the same strings when read back).
 */
export function inertYaml(doc: Document, options: ToStringOptions = {}): string {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && TERMINAL_RAW.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString(options).replace(new RegExp(TERMINAL_RAW.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
