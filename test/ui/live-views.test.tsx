// Live views: what the console shows follows the service, and the cursor follows its row.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../support/ink.js';
import { createClient } from '../../src/api/client.js';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../support/wait.js';
import { SandboxStore, openDatabase } from '../../src/sandbox/db.js';
import { topRoute } from '../../src/store/index.js';
import { DEFAULT_ROUTES, specOf } from '../../src/ui/screens/routes.js';
import { openConsole } from './support.js';
import { sandboxForFile, startRestartableSandbox } from '../support/sandbox.js';

describe('live views', () => {
  const sb = sandboxForFile();
  let api: ReturnType<typeof createClient>;
  before(async () => {
    api = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  });
  after(async () => {
    await api.close();
  });

  test('the call log: a refresh that adds calls above the cursor leaves it on the same call; Enter opens that call', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'calls' }, pollMs: 3_600_000 });
    try {
      await c.waitFor('calls/day');
      await c.press('j', 'j', 'j');
      const chosen = c.store.getState().callLog.calls[3];
      const [assistant] = await api.listAssistants();
      const [number] = await api.listPhoneNumbers();
      for (const n of ['+14155550101', '+14155550102'])
        await api.placeOutboundCall({ assistantId: assistant.id, phoneNumberId: number.id, customer: { number: n } });
      await c.store.getState().actions.refreshCalls();
      assert.equal(c.store.getState().callLog.calls[5].id, chosen.id, 'two calls came in above it');
      await c.waitFor('+14155550102');
      await c.press(KEYS.enter);
      const top = c.store.getState().stack.at(-1)!;
      assert.deepEqual(top, { name: 'call', id: chosen.id }, 'Enter opens the call that was highlighted');
      await c.press(KEYS.escape);
      // Keys move on from where the cursor is now: k goes to the call above the chosen one.
      await c.waitFor('calls/day');
      await c.press('k');
      await c.press(KEYS.enter);
      assert.deepEqual(c.store.getState().stack.at(-1), { name: 'call', id: c.store.getState().callLog.calls[4].id });
    } finally {
      await c.close();
    }
  });

  test('coming back to a screen fetches it again: the cached rows stay, marked refreshing, and the new row arrives', async () => {
    const c = await openConsole(sb, { initialRoute: { name: 'assistants' }, pollMs: 3_600_000 });
    try {
      await c.waitFor('NAME');
      const before = c.store.getState().assistants.data!;
      await api.createAssistant({ name: 'Late Arrival' });
      await c.press('5');
      await c.waitFor('files ·');
      c.store.getState().actions.goTo({ name: 'assistants' });
      assert.equal(c.store.getState().assistants.data, before, 'the cached rows are shown meanwhile');
      assert.equal(DEFAULT_ROUTES.freshness(topRoute(c.store.getState()), c.store.getState()).state, 'refreshing');
      await c.waitFor('Late Arrival');
      assert.equal(DEFAULT_ROUTES.freshness(topRoute(c.store.getState()), c.store.getState()).state, 'fresh');
    } finally {
      await c.close();
    }
  });

  test('Files: "N of M files" stays true after an upload and a delete; processing moves to done without r, polled only while on top', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-live-'));
    const c = await openConsole(sb, { initialRoute: { name: 'files' }, pollMs: 100 });
    try {
      await c.waitFor('files ·');
      const total = (await api.listFiles({ page: 1, limit: 100 })).pagination.total;
      await c.waitFor(`${total} of ${total} files`);
      const path = join(dir, 'live-notes.txt');
      writeFileSync(path, 'Opening hours: 9 to 5.\n'.repeat(2000));
      const file = await c.store.getState().actions.uploadFile(path);
      assert.ok(file);
      await c.waitFor(`${total + 1} of ${total + 1} files`);
      // The upload's answer says processing; the list follows the service to done by itself.
      await until(() => c.store.getState().files.data!.files.find((f) => f.id === file!.id)?.status === 'done', 'the uploaded file reads done without r');
      assert.equal(specOf({ name: 'help' }).poll?.({ name: 'help' }, c.store.getState()) ?? null, null, 'no poll for a view that is not on top');
      assert.ok(await c.store.getState().actions.deleteFile(file!.id));
      await c.waitFor(`${total} of ${total} files`);
    } finally {
      await c.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a refresh that fails says so on the screen (stale + the error); when the service is back the view resumes without r', async () => {
    const own = await startRestartableSandbox();
    const c = await openConsole(own, { initialRoute: { name: 'assistants' }, pollMs: 100 });
    try {
      await c.waitFor('NAME');
      const shown = c.store.getState().assistants.data![0].id.slice(-8);
      // Down, without removing its data dir: the same service comes back on the same port.
      await own.stop();
      await c.press('r');
      const stale = await c.waitFor('stale: refresh failed');
      assert.ok(stale.includes(shown), `the rows shown before stay:\n${stale}`);
      const { db } = openDatabase(own.dataDir);
      const at = new Date().toISOString();
      new SandboxStore(db).insertAssistant({ id: randomUUID(), body: { name: 'Back Again' }, createdAt: at, updatedAt: at });
      db.close();
      await own.restart();
      const back = await c.waitFor('Back Again');
      assert.ok(!back.includes('stale'), back);
    } finally {
      await c.close();
      await own.close();
    }
  });
});
