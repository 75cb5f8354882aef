// A 50 MB upload streams from disk: memory stays flat and progress reaches the total.
// The receiving end is a small real server that checks the multipart framing byte for byte.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient } from '../../src/api/client.js';
import { json, startServer } from './servers.js';

const SIZE = 50 * 1024 * 1024;
// Collect garbage while sampling, so RSS shows what the upload holds on to, not chunks already
// sent and awaiting collection (the test's server lives in this process and makes garbage too).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const dir = mkdtempSync(join(tmpdir(), 'switchboard-upload-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a 50 MB file is streamed as multipart part "file" without being read into memory', async () => {
  const path = join(dir, 'recording.bin');
  writeFileSync(path, '');
  truncateSync(path, SIZE); // sparse: 50 MB of zeros that cost no disk

  const received = { bytes: 0, head: '', tail: Buffer.alloc(0), contentLength: 0, contentType: '' };
  const server = await startServer(async (req, res) => {
    received.contentLength = Number(req.headers['content-length']);
    received.contentType = String(req.headers['content-type']);
    for await (const chunk of req) {
      const buf = chunk as Buffer;
      if (received.head.length < 200) received.head += buf.subarray(0, 200).toString('latin1');
      received.tail = buf.length >= 64 ? Buffer.from(buf.subarray(-64)) : Buffer.concat([received.tail, buf]).subarray(-64);
      received.bytes += buf.length;
    }
    json(res, 201, { message: 'uploaded', file: { id: 'f1', name: 'recording.bin', bytes: SIZE } });
  });
  const api = createClient({ baseUrl: server.url, apiKey: 'k' });
  try {
    gc();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    let last: [number, number] = [0, 0];
    let nextSample = 0;
    const file = (
      await api.uploadFile(path, {
        onProgress: (sent, total) => {
          last = [sent, total];
          if (sent < nextSample) return;
          nextSample = sent + 4 * 1024 * 1024;
          gc();
          peak = Math.max(peak, process.memoryUsage().rss);
        },
      })
    ).record!;
    assert.equal(file.id, 'f1');
    assert.deepEqual(last, [SIZE, SIZE]);
    const growth = peak - baseline;
    assert.ok(growth < SIZE / 2, `RSS grew by ${(growth / 1024 / 1024).toFixed(1)} MB for a ${SIZE / 1024 / 1024} MB file`);
    console.log(`# upload RSS growth: ${(growth / 1024 / 1024).toFixed(1)} MB for 50 MB`);

    const boundary = /boundary=(.+)$/.exec(received.contentType)?.[1];
    assert.ok(boundary, received.contentType);
    assert.equal(received.bytes, received.contentLength, 'Content-Length announced up front matches what was sent');
    assert.ok(
      received.head.startsWith(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="recording.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    assert.ok(received.tail.toString('latin1').endsWith(`\r\n--${boundary}--\r\n`));
    assert.ok(received.bytes > SIZE && received.bytes < SIZE + 400);
  } finally {
    await api.close();
    await server.close();
  }
});
