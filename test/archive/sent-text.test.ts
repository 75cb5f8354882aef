// The archive keeps each call as the service sent it: its own key order, escapes and number
// spellings, read back byte for byte by the export (what `calls export` and `-o json` print),
// from a service (the hosted fixture) that writes its records unlike the sandbox and JSON.stringify.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import { openArchive } from '../../src/archive/index.js';
import { startHostedFixture } from '../support/hosted-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-sent-text-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every UTF-16 unit outside printable ASCII as \uXXXX, and `/` as `\/`: escapes JSON.stringify never writes. */
function quoted(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i];
    out += ch === '"' ? '\\"' : ch === '\\' ? '\\\\' : ch === '/' ? '\\/' : c < 0x20 || c > 0x7e ? `\\u${c.toString(16).padStart(4, '0')}` : ch;
  }
  return out + '"';
}

/** A service's own way of writing JSON: keys in reverse order, spaces and tabs, fractions in exponent form. */
function handWritten(v: unknown): string {
  if (typeof v === 'string') return quoted(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toExponential();
  if (Array.isArray(v)) return `[ ${v.map(handWritten).join(' ,\t')} ]`;
  if (v !== null && typeof v === 'object')
    return `{ ${Object.entries(v)
      .reverse()
      .map(([k, x]) => `${quoted(k)} :\t${handWritten(x)}`)
      .join(', ')} }`;
  return JSON.stringify(v);
}

/** Text that splits a naive scanner: the `},{` between records, brackets, quotes and backslashes, inside strings. */
const TRAP = 'ends "},{"id":"x"} here ]] \\ \\" and {[ café ☎ 😀 </script>';

test('the archive stores and exports each call exactly as the service wrote it, whatever its key order, escapes and spacing', async (t) => {
  const fx = await startHostedFixture({ calls: 30, callText: handWritten });
  t.after(() => fx.close());
  for (const c of fx.calls) c.note = TRAP;
  const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey, retries: 0 });
  t.after(() => api.close());
  const archive = openArchive(join(dir, 'a.db'), { service: `remote:${fx.url}` });
  t.after(() => archive.close());

  const r = await archive.sync(api);
  assert.equal(r.added, fx.calls.length);
  const exported = [...archive.exportJson()];
  assert.equal(exported.length, fx.calls.length);
  const sent = new Map(fx.calls.map((c) => [c.id, handWritten(c)]));
  for (const text of exported) {
    const id = (JSON.parse(text) as { id: string }).id;
    assert.equal(text, sent.get(id), `call ${id}: the stored text is the service's`);
  }
  assert.deepEqual(archive.get(fx.calls[3].id as string), fx.calls[3]);
});

test("a service that writes a record across lines: stored on one line of its block, the same value in the service's key order", async (t) => {
  const pretty = (c: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(c).reverse()), null, 2);
  const fx = await startHostedFixture({ calls: 5, callText: pretty });
  t.after(() => fx.close());
  for (const c of fx.calls) c.note = TRAP;
  const api = createClient({ baseUrl: fx.url, apiKey: fx.apiKey, retries: 0 });
  t.after(() => api.close());
  const archive = openArchive(join(dir, 'b.db'), { service: `remote:${fx.url}` });
  t.after(() => archive.close());

  await archive.sync(api);
  const exported = [...archive.exportJson()];
  assert.equal(exported.length, fx.calls.length);
  for (const text of exported) {
    assert.ok(!text.includes('\n'));
    const value = JSON.parse(text) as Record<string, unknown>;
    const held = fx.call(value.id as string)!;
    assert.deepEqual(value, held);
    assert.deepEqual(Object.keys(value), Object.keys(held).reverse());
  }
});
