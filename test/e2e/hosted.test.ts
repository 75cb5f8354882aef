// End to end in a real terminal against the hosted-service fixture (written from the public
// references, not from our sandbox): bare lists, {message, data} records, a silent page cap, strict
// date bounds, calls in the platform's shape. The call log shows durations from startedAt/endedAt,
// a call's page its transcript from messages[].message and its summary from analysis.summary.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTmux, type TmuxSession, tmuxSkip } from '../support/tmux.js';
import { homeEnv, removeTree } from '../support/cli.js';
import { startHostedFixture, type HostedFixture } from '../support/hosted-fixture.js';

const root = resolve(import.meta.dirname, '../..');
const cli = process.env.SWITCHBOARD_E2E_CLI ?? join(root, 'dist/cli.js');
const skip = tmuxSkip(cli);
if (skip) console.log(`# skipping the hosted-service end-to-end test: ${skip}`);

const home = mkdtempSync(join(tmpdir(), 'sb-e2e-hosted-'));
let term: TmuxSession | undefined;
let fixture: HostedFixture | undefined;
after(async () => {
  term?.kill();
  await fixture?.close();
  removeTree(home);
});

const title = 'the console against the hosted-service fixture: durations, transcript text and summary from the platform shape';
test(title, { skip, timeout: 10 * 60_000 }, async () => {
  fixture = await startHostedFixture({ list: 'bare', single: 'messageData', pageCap: 'silent', pageCapSize: 100, dateFilters: 'vapi', calls: 150 });
  const env = { ...homeEnv(home), TERM: 'xterm-256color', SWITCHBOARD_BASE_URL: fixture.url, SWITCHBOARD_API_KEY: fixture.apiKey };
  term = startTmux({ name: `sb-e2e-hosted-${process.pid}`, cwd: root, env, command: `${JSON.stringify(process.execPath)} ${cli}` });
  const t = term;

  // The assistants list, answered as a bare array.
  await t.waitFor(/● online[\s\S]*Front Desk/);

  // The call log: durations read from startedAt/endedAt (a minute and more), not "—".
  t.keys('3');
  const log = await t.waitFor(/calls\/day[\s\S]*\b\d+m\d+s\b/);
  assert.match(log, /CUSTOMER/);

  // A call that was answered: its transcript lines hold the words from messages[].message.
  t.keys('j');
  t.keys('Enter');
  const detail = await t.waitFor(/Thanks, that settles the \w+\./);
  assert.match(detail, /Summary[\s\S]*The caller asked about a \w+/, `the summary from analysis.summary:\n${detail}`);
  assert.doesNotMatch(detail, /^(Assistant|Caller):\s*$/m, 'no speaker line without its words');
  t.keys('Escape');
  await t.waitFor('calls/day');

  t.keys('q');
  assert.equal(await t.waitForExit(), 0);
});
