// Names from a service are data, not terminal commands: a file name carrying escape sequences,
// BEL, CR or NUL is shown escaped by the commands and by the console, never sent raw to the
// terminal (which could retitle the window, clear the screen or hide text).
import { test } from 'node:test';
import { setUpAndTearDown } from '../support/hooks.js';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createElement } from 'react';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore } from '../../src/store/index.js';
import { App } from '../../src/ui/app.js';
import { renderApp } from '../support/ink.js';
import { runCli, tempHome, type CliHome } from '../support/cli.js';
import { ROUTES } from '../../src/ui/screens/routes.js';

const EVIL = 'report\u001b]0;pwned\u0007\u001b[2J\r\u0000.txt';
/** Raw sequences that must never reach the terminal from data (a CR only as part of CSV's CRLF). */
const RAW = [/\u001b\]0;pwned/, /\u0007/, /\u001b\[2J/, /\u0000/, /\r(?!\n)/];

const file = {
  id: 'file-evil',
  name: EVIL,
  bytes: 12,
  status: 'done',
  mimetype: 'text/plain',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
};
let server: Server;
let url: string;
let home: CliHome;
setUpAndTearDown(
  async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/files/file-evil')) return res.end(JSON.stringify({ file }));
      if (req.url?.startsWith('/files')) return res.end(JSON.stringify({ files: [file], pagination: { total: 1, page: 1, limit: 50, totalPages: 1 } }));
      res.end(JSON.stringify({ assistants: [], phoneNumbers: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    home = tempHome();
  },
  async () => {
    await new Promise((r) => server.close(r));
    home.cleanup();
  },
);

const raw = (text: string) => RAW.filter((seq) => seq.test(text)).map(String);

test('commands: files list (table and csv) and files get print the name escaped', async () => {
  const env = { ...home.env, SWITCHBOARD_BASE_URL: url, SWITCHBOARD_API_KEY: 'sk-display-test-key-0000' };
  for (const args of [
    ['files', 'list'],
    ['files', 'list', '-o', 'csv'],
    ['files', 'get', 'file-evil'],
  ]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /report/, `${args.join(' ')} shows the file`);
    assert.deepEqual(raw(r.stdout), [], `${args.join(' ')} printed raw control characters: ${JSON.stringify(r.stdout)}`);
  }
});

test('console: the Files screen shows the name escaped', async () => {
  const api = createClient({ baseUrl: url, apiKey: 'sk-display-test-key-0000' });
  const store = createConsoleStore(api, { kind: 'remote', profile: 'display', baseUrl: url }, { routes: ROUTES, initialRoute: { name: 'files' } });
  const app = await renderApp(createElement(App, { store }));
  try {
    const frame = await app.waitFor('report');
    assert.deepEqual(raw(app.frames.join('')), [], `raw control characters on screen: ${JSON.stringify(frame)}`);
  } finally {
    app.unmount();
    store.getState().actions.dispose();
    await api.close();
  }
});
