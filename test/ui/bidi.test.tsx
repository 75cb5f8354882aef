// Bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder what is drawn after them, so
// a name such as "invoice<RLO>fdp.exe" shows as "invoiceexe.pdf" and a row's later cells move;
// U+2028/U+2029 break a line on some terminals. The one escaping function shows each as <U+…>:
// in the console (a list, a detail, the header's breadcrumbs) and in every command's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../src/api/client.js';
import { escapeLine, escapeText, jsonText } from '../../src/format/escape.js';
import { runCli } from '../support/cli.js';
import { sandboxForCli } from '../support/sandbox.js';
import { openConsole } from './support.js';

const FORMATTING = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u2028', '\u2029'];
const NAME = `Bidi ${FORMATTING.join('x')} end`;
const rawIn = (text: string) => FORMATTING.filter((c) => text.includes(c)).map((c) => `U+${c.charCodeAt(0).toString(16)}`);

test('escapeText and escapeLine show every bidi override/isolate and line/paragraph separator as <U+…>; jsonText as \\u escapes', () => {
  assert.equal(escapeText('a\u202eb\u2066c\u2029d'), 'a<U+202E>b<U+2066>c<U+2029>d');
  assert.equal(escapeLine('a\u2028b\nc'), 'a<U+2028>b↵c');
  assert.deepEqual(rawIn(escapeText(NAME)), []);
  const json = jsonText({ name: NAME });
  assert.deepEqual(rawIn(json), []);
  assert.deepEqual(JSON.parse(json), { name: NAME }, 'the JSON parses back to the exact value');
});

const on = sandboxForCli();
let id = '';

test('console and commands: an assistant named with bidi controls and separators never draws them raw', async () => {
  const api = createClient({ baseUrl: on.sb.url, apiKey: on.sb.apiKey });
  try {
    id = (await api.createAssistant({ name: NAME, firstMessage: NAME } as never)).record!.id;
  } finally {
    await api.close();
  }
  for (const initialRoute of [{ name: 'assistants' as const }, { name: 'assistant' as const, id }]) {
    const c = await openConsole(on.sb, { initialRoute });
    try {
      await c.waitFor('Bidi <U+202A>');
      assert.deepEqual(rawIn(c.frames.join('')), [], `${initialRoute.name}: raw bidi/separator on screen:\n${c.frame()}`);
    } finally {
      await c.close();
    }
  }
  for (const args of [
    ['assistants', 'list'],
    ['assistants', 'get', id],
    ['assistants', 'get', id, '-o', 'json'],
  ]) {
    const r = await runCli(args, { env: on.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, args.includes('json') ? /\\u202e/ : /<U\+202E>/, `${args.join(' ')} shows the mark`);
    assert.deepEqual(rawIn(r.stdout + r.stderr), [], `${args.join(' ')} printed a raw bidi control or separator`);
  }
});
