// --mouse in the console: SGR reports reach the screen in front as events (the wheel moves the
// cursor, a click puts it on the row clicked) and never as keys or text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';
import { tick } from '../support/ink.js';
import { routeKey, viewOf } from '../../src/store/index.js';

const sgr = (b: number, x: number, y: number, end = 'M') => `\x1b[<${b};${x};${y}${end}`;

describe('the mouse', () => {
  const api = createMemoryApi();
  for (let i = 0; i < 12; i++) void api.createAssistant({ name: `Assistant ${String(i).padStart(2, '0')}` });

  test('the wheel moves the list three rows a notch; a click selects the row under it', async () => {
    const c = await openConsole(api, { initialRoute: { name: 'assistants' } });
    try {
      await c.waitFor('Assistant 11');
      const cursor = () => viewOf(c.store.getState(), routeKey(c.store.getState().stack.at(-1)!)).cursor;
      c.stdin.write(sgr(65, 10, 8));
      await tick();
      assert.equal(cursor(), 3);
      c.stdin.write(sgr(64, 10, 8));
      await tick();
      assert.equal(cursor(), 0);
      // Find the screen row of "Assistant 05" in the frame and click it.
      const y =
        c
          .frame()
          .split('\n')
          .findIndex((l) => l.includes('Assistant 05')) + 1;
      c.stdin.write(sgr(0, 10, y) + sgr(0, 10, y, 'm'));
      await tick();
      const header = c
        .frame()
        .split('\n')
        .findIndex((l) => l.startsWith('NAME'));
      assert.equal(cursor(), y - 1 - header - 1, 'the cursor is on the row clicked');
      assert.equal(c.store.getState().stack.length, 1, 'a click opened nothing');
      assert.equal(c.store.getState().mode, 'normal', 'and typed nothing (no : or / line)');
    } finally {
      await c.close();
    }
  });
});
