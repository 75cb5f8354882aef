import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS } from '../support/ink.js';
import { openConsole } from './support.js';
import { checkUploadPath, completePath } from '../../src/ui/screens/files/pathInput.js';
import { sandboxForFile } from '../support/sandbox.js';

describe('Files screen and the shell', () => {
  const sb = sandboxForFile();
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-ui-files-'));
    writeFileSync(join(dir, 'returns-policy.txt'), 'Returns are accepted within 30 days.\n');
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('upload checks the path, completes with Tab, uploads, and the detail names its users', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'files' } });
    try {
      await c.waitFor('NAME');
      await c.press('u');
      await c.waitFor('Upload a knowledge-base file');
      await c.type(join(dir, 'nope.txt'));
      await c.press(KEYS.ctrlS);
      await c.waitFor('no such file');
      for (let i = 0; i < 'nope.txt'.length; i++) await c.press(KEYS.backspace);
      await c.type('ret');
      await c.press(KEYS.tab);
      await c.waitFor('returns-policy.txt');
      await c.press(KEYS.ctrlS);
      await c.waitFor('integrationId'); // the detail is on screen
      await c.press('G');
      await c.waitFor('Used by assistants');
      assert.match(c.frame(), /returns-policy\.txt/);
      assert.ok(c.store.getState().files.data!.files.some((f) => f.name === 'returns-policy.txt'));
    } finally {
      await c.close();
    }
  });

  test('path completion with several matches lists them and completes their common prefix, staying in the field', async () => {
    const many = mkdtempSync(join(tmpdir(), 'sb-ui-many-'));
    writeFileSync(join(many, 'faq-billing.txt'), 'Billing questions.\n');
    writeFileSync(join(many, 'faq-booking.md'), 'Booking questions.\n');
    mkdirSync(join(many, 'faq-old'));
    const c = await openConsole(sb, { initialRoute: { name: 'files' } });
    try {
      await c.waitFor('NAME');
      await c.press('u');
      await c.waitFor('Upload a knowledge-base file');
      await c.type(join(many, 'f'));
      await c.press(KEYS.tab);
      const f = await c.waitFor('faq-billing.txt  faq-booking.md  faq-old/');
      assert.ok(f.includes(join(many, 'faq-')), f);
      // Tab again: nothing more in common, still listed, still in the field.
      await c.press(KEYS.tab);
      await c.type('bi');
      await c.press(KEYS.tab);
      await c.waitFor(join(many, 'faq-billing.txt'));
      assert.doesNotMatch(c.frame(), /faq-booking\.md/, 'the list went once the text changed');
      assert.match(c.frame(), /› Path/, 'focus never left the path');
    } finally {
      await c.close();
      rmSync(many, { recursive: true, force: true });
    }
  });

  test('palette: Tab cycles through the commands a prefix matches; :calls <id> opens that call', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'files' } });
    try {
      await c.waitFor('NAME');
      await c.press(':');
      await c.type('c');
      await c.press(KEYS.tab);
      await c.waitFor(/^:calls/m);
      await c.press(KEYS.tab);
      await c.waitFor(/^:chat/m);
      await c.press(KEYS.tab);
      await c.waitFor(/^:calls/m);
      await c.press(KEYS.escape);
      await new Promise((r) => setTimeout(r, 60));
      await c.press('3');
      await c.waitFor('calls/day');
      const first = c.store.getState().callLog.calls[0];
      assert.ok(first, 'the sandbox has calls');
      await c.press('1');
      await c.press(':');
      await c.type(`calls ${first.id}`);
      await c.press(KEYS.enter);
      await c.waitFor(`call ${first.id}`);
      assert.deepEqual(
        c.store.getState().stack.map((r) => r.name),
        ['calls', 'call'],
      );
    } finally {
      await c.close();
    }
  });

  test('d asks for confirmation naming the file; n keeps it, y deletes it', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'files' } });
    try {
      await c.waitFor('NAME');
      const f = c.store.getState().files.data!.files[0];
      await c.press('d');
      await c.waitFor(`Delete "${f.name}"`);
      await c.press('n');
      assert.ok(c.store.getState().files.data!.files.some((x) => x.id === f.id));
      await c.press('d');
      await c.waitFor(`Delete "${f.name}"`);
      await c.press('y');
      await c.waitFor(/deleted/i);
      assert.ok(!c.store.getState().files.data!.files.some((x) => x.id === f.id));
    } finally {
      await c.close();
    }
  });

  test('screens by number and -, the palette with Tab completion, help from the keymap, q quits but not while typing', async () => {
    const c = await openConsole(sb);
    try {
      await c.waitFor('NAME');
      const top = () => c.store.getState().stack.at(-1)!.name;
      await c.press('4');
      assert.equal(top(), 'chat');
      await c.press('2');
      await c.waitFor('PROVIDER');
      await c.press('-');
      assert.equal(top(), 'chat');
      await c.press(':');
      await c.type('ca');
      await c.press(KEYS.tab);
      await c.waitFor(':calls');
      await c.press(KEYS.enter);
      await c.waitFor('calls/day');
      await c.press(':');
      await c.type('bogus');
      await c.press(KEYS.enter);
      await c.waitFor('Unknown command :bogus');
      await c.press('?');
      // The call log's own keys first, then the rest (further down).
      assert.match(await c.waitFor('This screen: Calls'), /This screen: Calls\n(.*\n)*?\s+f +filters\n/);
      await c.press('j', 'j', 'j', 'j', 'j');
      await c.waitFor('Everywhere');
      await c.press('/');
      await c.type('always');
      await c.waitFor(/Ctrl-C\s+quit \(always\)/);
      await c.press(KEYS.escape); // clears the filter; the next Esc leaves help
      await c.press(KEYS.escape);
      await c.waitFor('calls/day');
      await c.press('/');
      await c.type('q'); // typing into the filter: q is text, not quit
      assert.equal(c.store.getState().quitting, false);
      await c.press(KEYS.escape);
      await c.press('q');
      assert.equal(c.store.getState().quitting, true);
    } finally {
      await c.close();
    }
  });

  test('upload path checks: missing, directory, empty, fine; completion of a unique name', () => {
    writeFileSync(join(dir, 'empty.txt'), '');
    assert.match(checkUploadPath(join(dir, 'missing')) ?? '', /no such file/);
    assert.match(checkUploadPath(dir) ?? '', /is a directory/);
    assert.match(checkUploadPath(join(dir, 'empty.txt')) ?? '', /is empty/);
    assert.equal(checkUploadPath(join(dir, 'returns-policy.txt')), null);
    assert.deepEqual(completePath(join(dir, 'retu')), { value: join(dir, 'returns-policy.txt'), choices: [] });
    assert.equal(completePath(join(dir, 'returns-policy.txt')), null, 'nothing to add: Tab moves on');
    assert.equal(completePath(join(dir, 'zzz')), null);
  });
});

describe('every list screen shows the service error and retries with r', () => {
  const sb = sandboxForFile();
  for (const [name, what] of [
    ['numbers', 'phone numbers'],
    ['calls', 'the call log'],
    ['files', 'files'],
  ] as const) {
    test(`${name}: a wrong key`, async () => {
      const c = await openConsole(sb, { apiKey: 'sk-not-the-key-9999', initialRoute: { name } });
      try {
        const f = await c.waitFor(`Could not load ${what}`);
        assert.match(f, /Press r to retry/);
        assert.match(f, /unauthorized/);
        assert.match(f, /switchboard login/, 'the next step is named');
        await c.press('r');
        await c.waitFor(`Could not load ${what}`);
        await c.press('1'); // keys still navigate
        await c.waitFor('Could not load assistants');
      } finally {
        await c.close();
      }
    });
  }
});
