// The upload form: one line, so Esc after a bad path leaves without asking; a file whose name a
// listed file has is uploaded only after a yes (two of one name make `files: [name]` ambiguous).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { openConsole } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';

const sb = sandboxForFile();
let dir: string;
before(() => void (dir = mkdtempSync(join(tmpdir(), 'sb-ui-upload-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

const top = (c: Awaited<ReturnType<typeof openConsole>>) => c.store.getState().stack.at(-1)!.name;

test('Esc after a bad path leaves the one-field upload form without asking to discard', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'files' } });
  try {
    await c.waitFor('NAME');
    await c.press('u');
    await c.waitFor('Upload a knowledge-base file');
    await c.type(join(dir, 'nope.txt'));
    await c.press(KEYS.ctrlS);
    await c.waitFor('no such file');
    await c.press(KEYS.escape);
    await until(() => top(c) === 'files', 'back on Files');
    assert.equal(c.store.getState().dialog, null);
    assert.doesNotMatch(c.frame(), /Discard your changes/);
  } finally {
    await c.close();
  }
});

test('a file named like one listed is uploaded only after a yes that names the clash', async () => {
  const c = await openConsole(sb, { initialRoute: { name: 'files' } });
  try {
    await c.waitFor('NAME');
    await until(() => (c.store.getState().files.data?.files.length ?? 0) > 0, 'files listed');
    const existing = c.store.getState().files.data!.files[0];
    const name = existing.name!;
    writeFileSync(join(dir, name), 'A second file of the same name.\n');
    const count = () => c.store.getState().files.data!.files.filter((f) => f.name === name).length;
    const before = count();
    await c.press('u');
    await c.waitFor('Upload a knowledge-base file');
    await c.type(join(dir, name));
    await c.press(KEYS.ctrlS);
    await c.waitFor(`A file named ${name} is already there`);
    assert.match(c.frame(), /ambiguous/);
    // The footer is the dialog's keys, not the form's under it (Tab, Ctrl-S do nothing now).
    const footer = () => c.frame().trimEnd().split('\n').at(-1) ?? '';
    await until(() => /y yes/.test(footer()) && /n no/.test(footer()), "the dialog's keys in the footer").catch(() =>
      assert.fail(`the footer offers: ${footer()}`),
    );
    assert.doesNotMatch(footer(), /next field|Ctrl-S/);
    await c.press('n');
    await until(() => c.store.getState().dialog === null);
    assert.equal(top(c), 'file-upload', 'still on the form, nothing sent');
    assert.equal(count(), before);
    await c.press(KEYS.ctrlS);
    await c.waitFor(`A file named ${name} is already there`);
    await c.press('y');
    await until(() => top(c) === 'file', 'the new file opens');
    assert.equal(count(), before + 1);
  } finally {
    await c.close();
  }
});
