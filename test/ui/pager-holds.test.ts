// Which $PAGER the console waits for a key after (it may print and exit at once, and the
// console's repaint would wipe what it printed) and which it does not (it holds the screen until quit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pagerHoldsScreen } from '../../src/ui/external-editor.js';

test('less, most and the vi family hold the screen; cat, more, bat and less -F may exit by themselves', () => {
  for (const held of ['less -R', '/usr/bin/less', 'less -RX', 'most', 'nvim -R -', '"/opt/bin/less" -R']) assert.equal(pagerHoldsScreen(held, {}), true, held);
  for (const exits of ['cat', 'more', 'bat', 'less -F', 'less -RF', 'less -FRX', 'less --quit-if-one-screen', 'node pager.mjs'])
    assert.equal(pagerHoldsScreen(exits, {}), false, exits);
  assert.equal(pagerHoldsScreen('less -R', { LESS: 'FRX' }), false, '$LESS as git sets it');
  assert.equal(pagerHoldsScreen('less -R', { LESS: '-R --quit-if-one-screen' }), false);
  assert.equal(pagerHoldsScreen('less', { LESS: '-R' }), true);
});
