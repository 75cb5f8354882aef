// The console's call log rendered by the Ink it is bundled with (test/bench/ink-frames.ts bundles
// this once per set of Ink patches) on a 120×40 terminal stand-in, moving the cursor with j/k.
// Prints one JSON line: bytes, writes and CPU time per key, over `keys` keypresses.
// argv: <baseUrl> <apiKey> <keys>
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { createElement } from 'react';
import { render } from 'ink';
import { createClient } from '../../../src/api/client.js';
import { createConsoleStore } from '../../../src/store/index.js';
import { App } from '../../../src/ui/app.js';
import { ROUTES } from '../../../src/ui/screens/routes.js';

const [baseUrl, apiKey, keysArg] = process.argv.slice(2);
const KEYS = Number(keysArg);

/** A terminal as Ink sees one: a TTY of fixed size that counts what reaches it and in how many writes. */
class Terminal extends Writable {
  isTTY = true;
  columns = 120;
  rows = 40;
  bytes = 0;
  writes = 0;
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.count([chunk]);
    cb();
  }
  override _writev(chunks: { chunk: Buffer }[], cb: () => void) {
    this.count(chunks.map((c) => c.chunk));
    cb();
  }
  private count(chunks: Buffer[]) {
    this.writes++;
    for (const c of chunks) {
      this.bytes += c.length;
      this.text = (this.text + c.toString()).slice(-20000);
    }
  }
  hasColors() {
    return true;
  }
}

// The console's dispatcher listens for 'data' (src/ui/hooks/keypress.tsx), as on a real terminal.
class Keyboard extends EventEmitter {
  isTTY = true;
  press(k: string) {
    this.emit('data', Buffer.from(k));
  }
  read = () => null;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const api = createClient({ baseUrl, apiKey });
const store = createConsoleStore(api, { kind: 'sandbox', profile: 'sandbox', baseUrl }, { routes: ROUTES, initialRoute: { name: 'calls' } });
const stdout = new Terminal();
const stdin = new Keyboard();
const app = render(createElement(App, { store }), {
  stdout: stdout as unknown as NodeJS.WriteStream,
  stdin: stdin as unknown as NodeJS.ReadStream,
  exitOnCtrlC: false,
  patchConsole: false,
  maxFps: 60,
  incrementalRendering: true,
});
for (let i = 0; i < 300 && !/\d+ calls/.test(stdout.text); i++) await sleep(20);
await sleep(300);
// Down 40 (past the window's bottom: every key scrolls a row), up 40, repeated: keys paced like key repeat.
const run = async (n: number) => {
  for (let i = 0; i < n; i++) {
    stdin.press(Math.floor(i / 40) % 2 === 0 ? 'j' : 'k');
    await sleep(40);
  }
};
await run(80); // warm-up
const bytes0 = stdout.bytes;
const writes0 = stdout.writes;
const cpu0 = process.cpuUsage();
await run(KEYS);
const cpu = process.cpuUsage(cpu0);
const result = {
  keys: KEYS,
  bytesPerKey: (stdout.bytes - bytes0) / KEYS,
  writesPerKey: (stdout.writes - writes0) / KEYS,
  cpuMsPerKey: (cpu.user + cpu.system) / 1000 / KEYS,
};
app.unmount();
store.getState().actions.dispose();
await api.close();
console.log(JSON.stringify(result));
process.exit(0);
