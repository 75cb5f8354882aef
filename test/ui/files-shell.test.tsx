import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS } from '../support/ink.js';
import { openConsole, startTestSandbox, type Sandbox } from './support.js';
import { checkUploadPath, completePath } from '../../src/ui/screens/files/pathInput.js';

describe('Files screen and the shell', () => {
  let sb: Sandbox;
  let dir: string;
  before(async () => {
    sb = await startTestSandbox();
    dir = mkdtempSync(join(tmpdir(), 'sb-ui-files-'));
    writeFileSync(join(dir, 'returns-policy.txt'), 'Returns are accepted within 30 days.\n');
  });
  after(async () => {
    await sb.close();
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
      await c.waitFor('SIP DOMAIN');
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
      const help = await c.waitFor('Everywhere');
      assert.match(help, /Ctrl-C\s+quit \(always\)/);
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
    assert.equal(completePath(join(dir, 'retu')), join(dir, 'returns-policy.txt'));
    assert.equal(completePath(join(dir, 'zzz')), null);
  });
});

describe('every list screen shows the service error and retries with r', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    await sb.close();
  });
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
