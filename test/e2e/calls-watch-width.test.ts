// `calls watch` on a narrow terminal: every event line fits the width in cells (no line wraps),
// the call's id short as in a table; its end still shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { CLI, runCli, tempHome } from '../support/cli.js';
import { hasTmux, startTmux } from '../support/tmux.js';
import { cellWidth } from '../../src/format/cells.js';

const skip = !hasTmux() && 'tmux is not installed';
const sb = sandboxForFile({ callPace: 20 }, { skip });

test('calls watch lines fit a 60-column terminal', { skip }, async () => {
  await sb.started;
  const home = tempHome();
  const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey, TERM: 'xterm-256color' };
  const t = startTmux({
    name: `watch-width-${process.pid}`,
    command: `${process.execPath} ${CLI} calls watch --interval 1`,
    env,
    cwd: process.cwd(),
    width: 60,
    height: 30,
  });
  try {
    await t.waitFor('watching the call log');
    const [assistant] = JSON.parse((await runCli(['assistants', 'list', '-o', 'json'], { env })).stdout) as { id: string }[];
    const [number] = JSON.parse((await runCli(['numbers', 'list', '-o', 'json'], { env })).stdout) as { id: string }[];
    const args = [
      'calls',
      'outbound',
      '--assistant',
      assistant.id,
      '--number',
      number.id,
      '--to',
      '+14155550199',
      '--name',
      'Maximilian Featherstonehaugh-Smythe',
    ];
    const placed = await runCli([...args, '-o', 'ids'], { env });
    assert.equal(placed.code, 0, placed.stderr);
    await t.waitFor(/ended/);
    // -J joins a line the terminal wrapped: a line wider than the pane would show here whole.
    const lines = t
      .screen({ joined: true })
      .split('\n')
      .filter((l) => l.trim());
    const events = lines.filter((l) => /^\d\d:\d\d:\d\d /.test(l));
    assert.ok(events.length >= 1, lines.join('\n'));
    for (const line of events) assert.ok(cellWidth(line) <= 60, `${cellWidth(line)} cells: ${line}`);
    assert.ok(
      events.some((l) => / ended /.test(l) && /\d+s customer|\d+s \S/.test(l)),
      events.join('\n'),
    );
    assert.ok(!events.some((l) => l.includes(placed.stdout.trim())), 'the id is short, as in a table');
  } finally {
    t.kill();
    home.cleanup();
  }
});
