// `:ring` from the console: the sandbox simulates an inbound call on a linked number and the call
// log shows it arrive, without a second terminal; on a hosted target it says it is sandbox-only.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForFile } from '../support/sandbox.js';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { parsePalette } from '../../src/ui/components/Palette.js';
import { openConsole } from './support.js';
import { createMemoryApi } from '../support/memory-api.js';

describe(':ring', () => {
  const sb = sandboxForFile({ callPace: 20 });

  test('the palette reads :ring with or without a DID as a command that acts, not a screen', () => {
    assert.ok('act' in parsePalette(':ring'));
    assert.ok('act' in parsePalette(':ring +14155550100'));
  });

  test('on the sandbox, an inbound call to the next linked number rings and the call log shows it', async () => {
    await sb.started;
    const c = await openConsole(sb, { initialRoute: { name: 'calls' } });
    try {
      await c.waitFor('calls/day');
      const before = new Set(c.store.getState().callLog.calls.map((x) => x.id));
      await c.press(':');
      await c.type('ring');
      await c.press(KEYS.enter);
      await until(() => /is ringing/.test(c.store.getState().flash?.text ?? ''), 'the flash says the call rings');
      assert.equal(c.store.getState().flash?.kind, 'info');
      await until(() => c.store.getState().callLog.calls.some((x) => !before.has(x.id) && x.type === 'inboundPhoneCall'), 'the new inbound call in the log');
    } finally {
      await c.close();
    }
  });

  test('the in-memory api rings as the sandbox does: the next linked number, a DID, and the same refusals', async () => {
    const api = createMemoryApi({ callPace: 20 });
    const linked = api.records.numbers.filter((n) => n.assistantId).sort((a, b) => (a.did < b.did ? -1 : 1));
    const first = await api.ringSandbox();
    assert.match(first.message, new RegExp(`^Inbound call from \\+\\d+ to \\${linked[0].did} is ringing$`));
    assert.equal(first.call?.type, 'inboundPhoneCall');
    assert.equal(first.call?.phoneNumberId, linked[0].id);
    assert.equal(first.call?.assistantId, linked[0].assistantId);
    assert.ok(
      (await api.listCalls({ limit: 5 })).some((x) => x.id === first.call?.id),
      'the call is in the log',
    );
    if (linked.length > 1) assert.equal((await api.ringSandbox()).call?.phoneNumberId, linked[1].id, 'then the next linked number');
    const byDid = await api.ringSandbox(linked[0].did.replace(/^\+/, ''));
    assert.equal(byDid.call?.phoneNumberId, linked[0].id);
    await assert.rejects(
      api.ringSandbox('+19999999999'),
      (err: Error & { status?: number }) => err.status === 404 && /no phone number \+19999999999/.test(err.message),
    );
    const unlinked = api.records.numbers.find((n) => !n.assistantId);
    if (unlinked) await assert.rejects(api.ringSandbox(unlinked.did), (err: Error & { status?: number }) => err.status === 409);
  });

  test('on a hosted target it is refused as sandbox-only, and nothing is sent', async () => {
    await sb.started;
    let rang = 0;
    const c = await openConsole(sb, {
      initialRoute: { name: 'calls' },
      target: { kind: 'remote', profile: 'work' },
      wrapApi: (api) => Object.assign(Object.create(api) as typeof api, { ringSandbox: () => Promise.resolve({ message: String(++rang) }) }),
    });
    try {
      await c.waitFor('calls/day');
      await c.press(':');
      await c.type('ring');
      await c.press(KEYS.enter);
      await until(() => c.store.getState().flash?.kind === 'error', 'an error flash');
      assert.match(c.store.getState().flash!.text, /^:ring is sandbox-only/);
      assert.equal(rang, 0);
    } finally {
      await c.close();
    }
  });
});
