// Uploads under abuse: a 2 GB upload is refused while streaming (413 early, the sandbox's
// memory stays flat), and names with control characters from a service are shown escaped.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { parseAnswer } from './raw-http.js';
import { removeDataDir, startChildSandbox, type ChildSandbox } from '../support/child-sandbox.js';

const TWO_GB = 2 * 1024 ** 3;
const children: ChildSandbox[] = [];
after(async () => {
  for (const c of children) {
    await c.stop();
    removeDataDir(c.dataDir);
  }
});

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Streams a multipart body declared as `declared` bytes until the server answers; returns the answer and how much was sent. */
function streamUntilAnswered(sb: ChildSandbox, declared: number, onChunk: () => void): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((done, fail) => {
    const b = 'bigupload';
    const head = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const socket = connect({ host: sb.host, port: sb.port });
    const got: Buffer[] = [];
    let sent = 0;
    let answered = false;
    const finish = () => {
      if (answered) return;
      const all = Buffer.concat(got);
      if (all.indexOf('\r\n\r\n') < 0) return;
      answered = true;
      socket.destroy();
      const a = parseAnswer(all);
      done({ status: a.status, body: a.body.toString(), sent });
    };
    socket.on('data', (c) => {
      got.push(c);
      finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (answered ? undefined : err.code === 'EPIPE' || err.code === 'ECONNRESET' ? finish() : fail(err)));
    socket.on('close', () => (answered ? undefined : fail(new Error(`closed without an answer after ${sent} bytes`))));
    const pump = () => {
      while (!answered && sent < declared) {
        onChunk();
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(
        `POST /files HTTP/1.1\r\nHost: x\r\nx-api-key: ${sb.apiKey}\r\nContent-Type: multipart/form-data; boundary=${b}\r\nContent-Length: ${declared}\r\n\r\n`,
      );
      socket.write(head);
      pump();
    });
  });
}

test('a 2 GB upload is refused with 413 while it streams, without the sandbox buffering it', async () => {
  const sb = await startChildSandbox(); // the default 25 MB limit
  children.push(sb);
  const before = rssMb(sb.child.pid!);
  let peak = before;
  const r = await streamUntilAnswered(sb, TWO_GB, () => (peak = Math.max(peak, rssMb(sb.child.pid!))));
  console.log(`2 GB upload: 413 after ${(r.sent / 1024 ** 2).toFixed(0)} MB sent; sandbox RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB`);
  assert.equal(r.status, 413, r.body);
  assert.match(JSON.parse(r.body).message, /larger than the upload limit/);
  assert.ok(r.sent < 200 * 1024 ** 2, `answered early: after ${r.sent} of ${TWO_GB} bytes`);
  assert.ok(peak - before < 100, `memory stayed flat: ${before.toFixed(0)} → ${peak.toFixed(0)} MB`);
  assert.ok(sb.alive());
  const list = (await (await fetch(`${sb.url}/files?limit=100`, { headers: { 'x-api-key': sb.apiKey } })).json()) as { files: { name: string }[] };
  assert.ok(!list.files.some((f) => f.name === 'huge.bin'), 'no record of the refused upload');
  assert.deepEqual(readdirSync(join(sb.dataDir, 'uploads')), [], 'and no partial bytes left behind');
});
