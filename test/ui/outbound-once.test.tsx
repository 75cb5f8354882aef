// The outbound form never places a second call by accident: after an answer that leaves the first
// call's fate open (no answer in time, or an accepted request with no call in it), Ctrl-S asks
// first, saying what the first attempt returned, and only a yes sends again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createClient } from '../../src/api/client.js';
import type { VoiceAgentApi } from '../../src/api/contract.js';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { drain, json, startServer, type TestServer } from '../api/servers.js';
import { openConsole } from './support.js';
import { sandboxForFile } from '../support/sandbox.js';

describe('the outbound form after an uncertain answer', () => {
  const sb = sandboxForFile();
  let service: TestServer;
  let outbound: VoiceAgentApi;
  /** How the stand-in service answers POST /calls/outbound; null: never (a timeout). */
  let answer: ((res: ServerResponse) => void) | null = null;
  before(async () => {
    service = await startServer(async (req, res) => {
      await drain(req);
      answer?.(res);
    });
    outbound = createClient({ baseUrl: service.url, apiKey: 'sk-test-outbound-0000', timeouts: { headersMs: 300 } });
  });
  after(async () => {
    await outbound.close();
    await service.close();
  });

  /** The console on the sandbox, except that outbound calls go to the stand-in service. */
  const open = () =>
    openConsole(sb, {
      initialRoute: { name: 'calls' },
      wrapApi: (api) => new Proxy(api, { get: (t, p) => (p === 'placeOutboundCall' ? outbound.placeOutboundCall : Reflect.get(t, p, t)) }),
    });
  const posts = () => service.requests.filter((r) => r.method === 'POST').length;

  async function fillAndSend(c: Awaited<ReturnType<typeof open>>, number: string, opts: { first?: boolean } = {}) {
    await c.press('o');
    await c.waitFor('Place an outbound call');
    await c.press(KEYS.tab, KEYS.tab);
    await c.type(number);
    await c.press(KEYS.ctrlS);
    if (opts.first === false) return;
    // The first call of a console is asked about too, naming who calls whom.
    await c.waitFor('Place this call?');
    await c.press('y');
  }

  test('a timeout: the form stays, Ctrl-S asks (naming the first answer), n sends nothing, y sends once more', async () => {
    answer = null;
    service.requests.length = 0;
    const c = await open();
    try {
      await c.waitFor('calls/day');
      await fillAndSend(c, '+14155550171');
      await until(() => c.store.getState().flash?.text.startsWith('The call may have been placed') === true, 'the flash says it may have been placed');
      assert.match(c.store.getState().flash!.text, /may have happened anyway: look in the call log for a call to \+14155550171/);
      assert.equal(posts(), 1);
      assert.equal(c.store.getState().stack.at(-1)!.name, 'call-outbound', 'the form stays');
      await c.waitFor('[ Call ]'); // no longer working

      await c.press(KEYS.ctrlS);
      await c.waitFor('Place another call?');
      assert.match(c.store.getState().dialog!.message, /to \+14155550171 got no clear answer/);
      await c.press('n');
      await until(() => c.store.getState().dialog === null, 'the dialog closes');
      await c.waitFor('[ Call ]');
      // The store refuses too, whoever asks: a second Ctrl-S path cannot skip the question.
      assert.equal(await c.store.getState().actions.placeCall({ assistantId: 'a', phoneNumberId: 'p', customer: { number: '+14155550171' } }), null);
      assert.equal(posts(), 1, 'nothing sent without a yes');

      await c.press(KEYS.ctrlS);
      await c.waitFor('Place another call?');
      await c.press('y');
      await until(() => posts() === 2, 'a yes sends it again, once');
      await until(() => c.store.getState().flash?.text.startsWith('The call may have been placed') === true, 'the second answer is reported');
      assert.equal(posts(), 2);
    } finally {
      await c.close();
    }
  });

  test('accepted with no call in the answer: a success, the log is shown, and the next call asks first', async () => {
    answer = (res) => json(res, 201, { message: 'Call queued' });
    service.requests.length = 0;
    const c = await open();
    try {
      await c.waitFor('calls/day');
      await fillAndSend(c, '+14155550172');
      await until(() => c.store.getState().flash?.text.startsWith('Calling +14155550172') === true, 'reported as placed');
      assert.equal(c.store.getState().flash!.kind, 'info');
      assert.match(c.store.getState().flash!.text, /accepted the call \(Call queued\); its id is unknown/);
      assert.equal(c.store.getState().stack.at(-1)!.name, 'calls');
      await fillAndSend(c, '+14155550172', { first: false });
      await c.waitFor('Place another call?');
      assert.match(c.store.getState().dialog!.message, /was accepted \(201: "Call queued"\) but its answer held no record/);
      assert.equal(posts(), 1);
      await c.press('n');
    } finally {
      await c.close();
    }
  });
});
