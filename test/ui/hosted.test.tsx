// The console against the second service: the hosted-service fixture written from the public
// references (test/support/hosted-fixture.ts), whose records are Vapi's (text in messages[].message,
// startedAt/endedAt and no durationSeconds, analysis.summary) and whose lists may be bare arrays.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { until } from '../support/wait.js';
import { fixturesForFile, type HostedFixture } from '../support/hosted-fixture.js';
import { openConsole, type Sandbox } from './support.js';

type Rec = Record<string, unknown>;

const fixture = fixturesForFile();

/** The console on the fixture, as a remote target (openConsole reads only url and apiKey of its service). */
function consoleOn(fx: HostedFixture, opts: Parameters<typeof openConsole>[1] = {}) {
  return openConsole(fx as unknown as Sandbox, { ...opts, target: { kind: 'remote', profile: 'hosted', baseUrl: fx.url } });
}

/** Every line the screen shows while scrolling down `steps` lines, in order, without repeats. */
async function scrollAll(c: Awaited<ReturnType<typeof consoleOn>>, steps: number): Promise<string> {
  const seen: string[] = [];
  const have = new Set<string>();
  const take = () => {
    for (const line of c.frame().split('\n')) {
      if (!have.has(line)) {
        have.add(line);
        seen.push(line);
      }
    }
  };
  take();
  for (let i = 0; i < steps; i++) {
    await c.press(KEYS.down);
    take();
  }
  return seen.join('\n');
}

const squash = (s: string) => s.replace(/\s+/g, ' ');
/** The records' shapes the call and number tests run against: the callhq reference's, and the platform's own (platform-records.ts). */
const RECORDS = ['callhq', 'platform'] as const;

describe('the console against the hosted-service fixture', () => {
  for (const records of RECORDS)
    test(`a call detail: the transcript from messages[].message, the duration from startedAt/endedAt, analysis.summary (${records} records)`, async () => {
      const fx = await fixture({ records });
      // A call that has them all (the platform's leave each optional field out of some).
      const call = fx.calls
        .slice(3)
        .find((x) => Array.isArray(x.messages) && x.messages.length > 2 && (x.analysis as Rec | undefined)?.summary && x.startedAt && x.endedAt)!;
      const c = await consoleOn(fx, { initialRoute: { name: 'call', id: String(call.id) } });
      try {
        await c.waitFor('Transcript');
        await until(() => c.store.getState().records[`call:${String(call.id)}`]?.status === 'ready', 'the whole call record');
        const summary = String((call.analysis as Rec).summary);
        const top = c.frame();
        const seconds = Math.round((Date.parse(call.endedAt as string) - Date.parse(call.startedAt as string)) / 1000);
        const duration = top.match(/duration\s+(\S+)/)?.[1];
        assert.ok(duration && duration !== '—' && duration !== '0s', `duration shown: ${duration}\n${top}`);
        assert.ok(duration.includes(`${Math.floor(seconds / 60)}m`), `duration ${duration} for ${seconds} s`);
        const all = squash(await scrollAll(c, 60));
        assert.ok(all.includes(summary.slice(0, 40)), `the summary in:\n${all}`);
        for (const m of (call.messages as Rec[]).filter((x) => x.role === 'bot' || x.role === 'user')) {
          assert.ok(all.includes(String(m.message).slice(0, 30)), `"${String(m.message)}" in the transcript:\n${all}`);
        }
        assert.doesNotMatch(all, /(Assistant|Caller):\s*(Assistant|Caller|$)/, 'no blank speaker lines');
      } finally {
        await c.close();
      }
    });

  for (const records of RECORDS)
    test(`the call log shows durations and costs (costBreakdown.total where cost is absent; ${records} records)`, async () => {
      const fx = await fixture({ records });
      const c = await consoleOn(fx, { initialRoute: { name: 'calls' } });
      try {
        await c.waitFor('calls/day');
        await until(() => c.store.getState().callLog.calls.length >= 10, 'the first page of the log');
        const frame = c.frame();
        // An ended call without `cost`: its row still shows a duration like 4m48s and a cost.
        const row = fx.calls.slice(0, 10).find((x) => x.status === 'ended' && !('cost' in x) && x.startedAt && x.endedAt && x.endedAt !== x.startedAt);
        assert.ok(row, 'the seed has such a call on the first screen');
        // Rows are newest first, as the fixture holds them: the row's place on screen is its index.
        const rows = frame.split('\n').filter((l) => /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(l));
        const line = rows[fx.calls.indexOf(row)];
        assert.ok(line, `the row of ${String(row.id)}:\n${frame}`);
        assert.match(line, /\d+m\d{2}s/, `a duration on ${line}`);
      } finally {
        await c.close();
      }
    });

  test('the numbers list in the platform shape: its number, name and status word', async () => {
    const fx = await fixture({ records: 'platform' });
    const c = await consoleOn(fx, { initialRoute: { name: 'numbers' } });
    try {
      await c.waitFor('+14155550123');
      const frame = c.frame();
      const row = frame.split('\n').find((l) => l.includes('+14155550123'));
      assert.match(row ?? '', /activating/, frame);
      // The SIP number has no number: its name stands for it, else its id.
      const sip = fx.phoneNumbers.find((n) => n.provider === 'vapi')!;
      assert.equal(sip.number, undefined);
      await c.waitFor(String(sip.name ?? sip.id).slice(0, 20));
    } finally {
      await c.close();
    }
  });

  for (const list of ['documented', 'bare', 'items'] as const) {
    test(`the assistants list loads when lists come ${list === 'documented' ? 'as a bare array (the default)' : `as ${list}`}`, async () => {
      const fx = await fixture({ list });
      const c = await consoleOn(fx);
      try {
        await c.waitFor('NAME');
        for (const a of fx.assistants) await c.waitFor(String(a.name));
        assert.equal(c.store.getState().assistants.data?.length, fx.assistants.length);
      } finally {
        await c.close();
      }
    });
  }

  for (const records of RECORDS)
    test(`an assistant page counts minutes from startedAt/endedAt, not 0.0 (${records} records)`, async () => {
      const fx = await fixture({ records });
      const c = await consoleOn(fx, { initialRoute: { name: 'assistant', id: String(fx.assistants[0].id) } });
      try {
        // The counts come from the archive, which the console syncs in the background.
        const seen = await c.waitFor(/[1-9][\d,]* · [\d.]+ min/);
        const minutes = Number(seen.match(/[1-9][\d,]* · ([\d.]+) min/)![1]);
        assert.ok(minutes > 0, `minutes on the page: ${seen}`);
      } finally {
        await c.close();
      }
    });

  test('a chat session whose messages carry no role is readable', async () => {
    const fx = await fixture({ messagesWithoutRole: true });
    const c = await consoleOn(fx, { initialRoute: { name: 'chat-session', sessionId: String(fx.sessions[0].id) } });
    try {
      await c.waitFor('opening hours on Sunday');
      await c.waitFor('open from ten until four');
    } finally {
      await c.close();
    }
  });
  test('the edit form: a PATCH answered {message, data} is saved, not reported failed', async () => {
    const fx = await fixture();
    // A voice today's form accepts, so that only the answer's envelope is tested here.
    const a = {
      ...structuredClone(fx.assistants[0]),
      id: 'a5515a27-4c1e-4a7b-9d2f-0000000000e1',
      name: 'Edited by the console',
      voice: { provider: '11labs', voiceId: 'burt', model: 'eleven_turbo_v2_5', language: 'en', speed: 1 },
    };
    fx.assistants.push(a);
    const c = await consoleOn(fx, { initialRoute: { name: 'assistant-edit', id: a.id } });
    try {
      await c.waitFor(`Edit ${a.name}`);
      await c.press('\x15'); // Ctrl-U: the name goes
      await c.type('Renamed in console');
      await c.press(KEYS.ctrlS);
      await until(() => fx.patches.length === 1, 'the PATCH').catch((e: unknown) => assert.fail(`${String(e)}\n${c.frame()}`));
      await c.waitFor('Saved assistant');
      assert.equal(a.name, 'Renamed in console');
      assert.doesNotMatch(c.frame(), /failed|could not/i);
    } finally {
      await c.close();
    }
  });

  test('the edit form saves an ElevenLabs voice without model and language (the reference requires them for Sarvam only)', async () => {
    const fx = await fixture({ single: 'messageNamed' });
    const a = fx.assistants[0];
    assert.deepEqual(Object.keys(a.voice as Rec).sort(), ['provider', 'speed', 'voiceId']);
    const c = await consoleOn(fx, { initialRoute: { name: 'assistant-edit', id: String(a.id) } });
    try {
      await c.waitFor(`Edit ${String(a.name)}`);
      await c.press('\x15');
      await c.type('Front Desk 2');
      await c.press(KEYS.ctrlS);
      await until(() => fx.patches.length === 1, 'the PATCH').catch((e: unknown) => assert.fail(`${String(e)}\n${c.frame()}`));
      assert.equal(a.name, 'Front Desk 2');
    } finally {
      await c.close();
    }
  });

  for (const records of RECORDS) {
    const answer = records === 'callhq' ? '{message, data}' : '202 {id, status}';
    test(`the outbound form answered ${answer}: Ctrl-S again places no second call, and the call is reported placed`, async () => {
      const fx = await fixture({ records });
      const c = await consoleOn(fx, { initialRoute: { name: 'calls' } });
      try {
        await c.waitFor('calls/day');
        await c.press('o');
        await c.waitFor('Place an outbound call');
        await c.press(KEYS.tab, KEYS.tab);
        await c.type('+14155550142');
        await c.press(KEYS.ctrlS);
        await c.waitFor('Place this call?');
        await c.press('y');
        await until(() => fx.requestsTo('/calls/outbound', 'POST').length === 1, 'the POST');
        await new Promise((r) => setTimeout(r, 300));
        // A second Ctrl-S, as a person would press it seeing no success: at most a confirmation.
        await c.press(KEYS.ctrlS);
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(fx.requestsTo('/calls/outbound', 'POST').length, 1, 'no second call placed');
        await c.waitFor('Calling +14155550142');
        assert.ok(
          c.store.getState().callLog.calls.some((x) => x.id === fx.calls[0].id) || c.frame().includes(String(fx.calls[0].id)),
          'the placed call is shown',
        );
      } finally {
        await c.close();
      }
    });
  }
});
