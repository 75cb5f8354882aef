// `:profiles` against two real sandboxes saved as two profiles: the list shows both (keys masked),
// Enter switches the console live (its next list comes from the other service, the header and the
// read-only guard follow), and a new profile's key is checked before it is saved, never shown.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openConsole } from './support.js';
import { until } from '../support/wait.js';
import { sandboxForFile } from '../support/sandbox.js';
import { tempHome } from '../support/cli.js';
import { KEYS } from '../support/ink.js';
import { createClient } from '../../src/api/client.js';
import { listProfiles, loadConfig, saveProfile, setProfileReadOnly } from '../../src/config/config.js';
import { maskKey } from '../../src/config/mask.js';
import { cellWidth } from '../../src/format/cells.js';

const CTRL_U = '\x15';
/** The form's save row, drawn again once a refused save is over (keys meanwhile are the busy form's). */
const SAVE = '[ check the key and save ]';

describe('profiles in the console', () => {
  const alpha = sandboxForFile();
  const beta = sandboxForFile();
  const home = tempHome();
  before(async () => {
    await Promise.all([alpha.started, beta.started]);
    const api = createClient({ baseUrl: beta.url, apiKey: beta.apiKey });
    await api.createAssistant({ name: 'Only in Beta' });
    await api.close();
    saveProfile('alpha', { baseUrl: alpha.url, apiKey: alpha.apiKey }, home.env);
    saveProfile('beta', { baseUrl: beta.url, apiKey: beta.apiKey }, home.env);
    saveProfile('beta-ro', { baseUrl: beta.url, apiKey: beta.apiKey }, home.env);
    setProfileReadOnly('beta-ro', true, home.env);
  });
  after(() => home.cleanup());

  const open = () =>
    openConsole(alpha, {
      initialRoute: { name: 'assistants' },
      target: { kind: 'remote', profile: 'alpha', maskedKey: maskKey(alpha.apiKey) },
      profiles: { env: home.env },
    });
  const profilesOpened = async (c: Awaited<ReturnType<typeof open>>) => {
    await c.press(':');
    await c.type('profiles');
    await c.press(KEYS.enter);
    await c.waitFor('beta-ro');
  };
  const noKeyIn = (frames: string[], ...keys: string[]) => {
    for (const key of keys) assert.ok(!frames.some((f) => f.includes(key)), `a frame shows the key ${maskKey(key)} whole`);
  };

  test('the list shows both targets, and Enter switches the console to the other one live', async () => {
    const c = await open();
    try {
      await c.waitFor(/^Switchboard │ http\S+ \(sk-…\w+\) │ profile alpha │/);
      await c.waitFor(/\d+ assistants/);
      assert.doesNotMatch(c.frame(), /Only in Beta/);
      const first = c.store;
      await profilesOpened(c);
      const f = c.frame();
      for (const text of [alpha.url, beta.url, maskKey(alpha.apiKey), 'sandbox', 'embedded sandbox']) assert.ok(f.includes(text), `${text} in\n${f}`);
      assert.match(f, /\*\s+alpha/, 'the live profile is marked');
      // sandbox, alpha, beta, beta-ro: the third row.
      await c.press('j', 'j', KEYS.enter);
      await c.waitFor(/^Switchboard │ http\S+ \(sk-…\w+\) │ profile beta │/);
      await c.waitFor('Only in Beta');
      assert.notEqual(c.store, first, 'a store made for the new target');
      assert.equal(first.disposed, true, "the old target's pollers and requests are stopped");
      assert.deepEqual(c.store.getState().stack, [{ name: 'assistants' }]);
      assert.equal(c.store.getState().target.baseUrl, beta.url);
      noKeyIn(c.frames, alpha.apiKey, beta.apiKey);
    } finally {
      await c.close();
    }
  });

  test('/ then O: the profiles the filter leaves, sorted by name both ways; Enter switches to the row under the cursor', async () => {
    const c = await open();
    try {
      await profilesOpened(c);
      await c.press('/');
      await c.type('beta');
      await c.press(KEYS.enter);
      const rows = () =>
        c
          .frame()
          .split('\n')
          .map((l) => /^\s*\*?\s*(beta-ro|beta)\s/.exec(l)?.[1])
          .filter(Boolean);
      await until(() => rows().length === 2 && !/^\s*\*?\s*alpha\s/m.test(c.frame()), 'only the beta profiles');
      await c.press('O');
      await c.waitFor('NAME ▲');
      assert.deepEqual(rows(), ['beta', 'beta-ro']);
      await c.press('O');
      await c.waitFor('NAME ▼');
      assert.deepEqual(rows(), ['beta-ro', 'beta']);
      await c.press(KEYS.enter);
      await c.waitFor(/│ profile beta-ro │/);
    } finally {
      await c.close();
    }
  });

  test('a new profile: a refused key or an unreachable URL is said in one line and not saved; a good key is saved, never shown', async () => {
    const c = await open();
    const wrong = 'sk-wrong-key-0000-1111';
    try {
      await profilesOpened(c);
      await c.press('n');
      await c.waitFor('Add a profile');
      await c.type('gamma');
      await c.press(KEYS.tab);
      await c.type(beta.url);
      await c.press(KEYS.tab);
      await c.type(wrong);
      assert.match(c.frame(), /API key\s+•{10,}/, 'the key is typed masked');
      await c.press(KEYS.ctrlS);
      await c.waitFor('refused the key (401); nothing was saved');
      assert.ok(!listProfiles(home.env).some((p) => p.name === 'gamma'), 'a refused key is not saved');

      await c.waitFor(SAVE);
      await c.press(KEYS.up, CTRL_U);
      await c.type('http://127.0.0.1:9');
      await c.press(KEYS.ctrlS);
      await c.waitFor(/127\.0\.0\.1:9\b.*; nothing was saved/);
      assert.ok(!listProfiles(home.env).some((p) => p.name === 'gamma'), 'an unreachable service saves nothing');
      await c.waitFor(SAVE);

      // The field to blame has the focus: the base URL.
      await c.press(CTRL_U);
      await c.type(beta.url);
      await c.press(KEYS.tab, CTRL_U);
      // Pasted, as keys are: the line break copied with it is dropped.
      await c.press(`\x1b[200~${beta.apiKey}\n\x1b[201~`);
      await c.press(KEYS.ctrlS);
      await c.waitFor('Profile gamma added');
      await c.waitFor('gamma');
      assert.equal(loadConfig(home.env).profiles.gamma?.apiKey, beta.apiKey);
      assert.equal(c.store.getState().stack.at(-1)?.name, 'profiles');
      noKeyIn(c.frames, wrong, beta.apiKey, alpha.apiKey);
    } finally {
      await c.close();
    }
  });

  test('d removes a profile after asking; the one in use and the built-in sandbox are not removed', async () => {
    saveProfile('zz-doomed', { baseUrl: beta.url, apiKey: beta.apiKey }, home.env);
    const c = await open();
    try {
      await profilesOpened(c);
      // sorted by name: zz-doomed last
      await c.press('G', 'd');
      await c.waitFor('Remove profile "zz-doomed"');
      await c.press('y');
      await c.waitFor('Profile zz-doomed removed');
      assert.ok(!('zz-doomed' in loadConfig(home.env).profiles));
      await c.press('g', 'j', 'd');
      assert.match(c.store.getState().flash?.text ?? '', /alpha is the profile in use; switch to another one first/);
      await c.press('g', 'd');
      assert.equal(c.store.getState().dialog, null, 'the sandbox is not offered for removal');
      assert.ok(listProfiles(home.env).some((p) => p.name === 'alpha'));
    } finally {
      await c.close();
    }
  });

  test('a read-only profile brings its setting: the header says so and a write key is refused; switching back lifts it', async () => {
    const c = await open();
    try {
      await profilesOpened(c);
      await c.press('j', 'j', 'j', KEYS.enter);
      // The header: the first line.
      await c.waitFor(/^Switchboard │ READ-ONLY │ .* │ profile beta-ro │/);
      await c.waitFor('Only in Beta');
      await c.press('n');
      assert.match(c.store.getState().flash?.text ?? '', /^Read-only: ".*" is a write and was refused/);
      assert.equal(c.store.getState().stack.length, 1);

      await profilesOpened(c);
      await c.press('j', KEYS.enter);
      await c.waitFor(/^Switchboard │ http\S+ \(sk-…\w+\) │ profile alpha │/);
      await c.press('n');
      assert.equal(c.store.getState().stack.at(-1)?.name, 'assistant-new');
    } finally {
      await c.close();
    }
  });

  test('at 80×24 the add-profile form keeps each hint in its field: the save row is the button alone', async () => {
    const c = await open();
    try {
      c.store.getState().actions.resize(80, 24);
      await profilesOpened(c);
      await c.press('n');
      const f = await c.waitFor(SAVE);
      const save = f.split('\n').find((l) => l.includes(SAVE))!;
      assert.equal(save.trim(), SAVE, `the save row:\n${f}`);
      for (const l of f.split('\n')) assert.ok(cellWidth(l) <= 80, `a row wider than the terminal: ${l}`);
      assert.match(f, /API key\s+typed masked; checked with one request, then saved/);
    } finally {
      await c.close();
    }
  });
});
