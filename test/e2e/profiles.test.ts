// In a real terminal (the built binary in tmux): `:profiles` adds a profile, its key typed masked
// (never on the screen), and Enter switches the console to it live: the header and the next list
// come from the other service; then to the embedded sandbox, which it starts for it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { createClient } from '../../src/api/client.js';
import { loadConfig, saveProfile } from '../../src/config/config.js';
import { CLI, tempHome, type CliHome } from '../support/cli.js';
import { sandboxForFile } from '../support/sandbox.js';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? CLI;
const skip = tmuxSkip(cli);

describe('profiles in a terminal', { skip }, () => {
  const lab = sandboxForFile();
  const other = sandboxForFile();
  let home: CliHome;
  let t: TmuxSession | undefined;

  before(async () => {
    await Promise.all([lab.started, other.started]);
    const api = createClient({ baseUrl: other.url, apiKey: other.apiKey });
    await api.createAssistant({ name: 'Only on the other service' });
    await api.close();
    home = tempHome();
    saveProfile('lab', { baseUrl: lab.url, apiKey: lab.apiKey }, home.env);
  });
  after(() => {
    t?.kill();
    home.cleanup();
  });

  test('n adds a profile with a masked key, and Enter switches the console to it', { timeout: 10 * 60_000 }, async () => {
    t = startTmux({
      width: 140,
      name: `sb-profiles-${process.pid}`,
      cwd: root,
      env: { ...home.env, TERM: 'xterm-256color' },
      command: [process.execPath, cli, '--profile', 'lab'].map((a) => JSON.stringify(a)).join(' '),
    });
    await t.waitFor(/profile lab │ ● online/);
    await t.waitFor(/NAME\s+STATUS/);
    assert.doesNotMatch(t.screen(), /Only on the other service/);
    t.type(':profiles');
    t.keys('Enter');
    await t.waitFor(/\*\s+lab/);
    t.keys('n');
    await t.waitFor('Add a profile');
    t.type('other');
    t.keys('Tab');
    t.type(other.url);
    t.keys('Tab');
    t.type(other.apiKey);
    const typed = await t.waitFor(new RegExp(`API key\\s+(…)?•{${Math.min(20, other.apiKey.length)},}`));
    assert.ok(!typed.includes(other.apiKey), `the key is on the screen:\n${typed}`);
    t.keys('C-s');
    await t.waitFor('Profile other added');
    assert.equal(loadConfig(home.env).profiles.other?.apiKey, other.apiKey);
    // sandbox, lab, other
    const list = await t.waitFor(/\s+other\s+http/);
    assert.ok(!list.includes(other.apiKey) && !list.includes(lab.apiKey), `a key is on the screen:\n${list}`);
    t.keys('j', 'j', 'Enter');
    const switched = await t.waitFor(/profile other │ ● online[\s\S]*Only on the other service/);
    assert.ok(!switched.includes(other.apiKey), `the key is on the screen:\n${switched}`);
    // And to the embedded sandbox, started as the console's child for it (its first row).
    t.type(':profiles');
    t.keys('Enter');
    await t.waitFor(/\*\s+other/);
    t.keys('g', 'Enter');
    await t.waitFor(/sandbox http:\/\/127\.0\.0\.1:\d+ │ profile sandbox │ ● online/);
    await t.waitFor(/NAME\s+STATUS/);
    t.keys('q');
    assert.equal(await t.waitForExit(), 0);
  });
});
