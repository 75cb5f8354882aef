// On a terminal, `calls list` and `calls stats --by assistant` show the assistant and number names
// the console's list cache knows rather than their ids; a pipe and -o json keep the ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { sandboxForFile } from '../support/sandbox.js';
import { CLI, runCli, tempHome } from '../support/cli.js';
import { hasTmux, startTmux } from '../support/tmux.js';
import { writeCachedList } from '../../src/config/cached-lists.js';

const skip = !hasTmux() && 'tmux is not installed';
const sb = sandboxForFile({}, { skip });

test('calls list and stats name assistants and numbers on a terminal, from the list cache', { skip }, async () => {
  await sb.started;
  const home = tempHome();
  const env = { ...home.env, SWITCHBOARD_BASE_URL: sb.url, SWITCHBOARD_API_KEY: sb.apiKey, TERM: 'xterm-256color' };
  const json = async <T>(args: string[]) => JSON.parse((await runCli([...args, '-o', 'json'], { env })).stdout) as T;
  const [call] = await json<{ id: string; assistantId: string; phoneNumberId: string }[]>(['calls', 'list', '--limit', '1']);
  const assistants = await json<{ id: string; name: string }[]>(['assistants', 'list']);
  const numbers = await json<{ id: string; did: string }[]>(['numbers', 'list']);
  // As the console leaves them: the lists it last saw, for this profile and service.
  const cache = join(home.env.XDG_CACHE_HOME!, 'switchboard');
  await writeCachedList(cache, 'env', `remote:${sb.url}`, 'assistants', assistants);
  await writeCachedList(cache, 'env', `remote:${sb.url}`, 'numbers', numbers);
  const name = assistants.find((a) => a.id === call.assistantId)!.name;
  const did = numbers.find((n) => n.id === call.phoneNumberId)!.did;

  for (const [label, args] of [
    ['list', ['calls', 'list', '--id', call.id]],
    ['stats', ['calls', 'stats', '--by', 'assistant']],
  ] as const) {
    const term = startTmux({
      name: `calls-names-${label}-${process.pid}`,
      command: `${process.execPath} ${CLI} ${args.join(' ')}`,
      env,
      cwd: process.cwd(),
      width: 220,
      height: 40,
    });
    try {
      assert.equal(await term.waitForExit(), 0, term.screen());
      const screen = term.screen();
      assert.ok(screen.includes(name.slice(0, 10)), `${label}: ${screen}`);
      assert.ok(!screen.includes(call.assistantId.slice(0, 8)), `${label} shows no assistant id: ${screen}`);
      if (label === 'list') assert.ok(screen.includes(did), screen);
    } finally {
      term.kill();
    }
  }
  const piped = await runCli(['calls', 'list', '--id', call.id, '-o', 'csv'], { env });
  assert.ok(piped.stdout.includes(call.assistantId), 'a pipe keeps the ids');
  home.cleanup();
});
