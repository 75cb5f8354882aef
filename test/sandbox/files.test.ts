import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startRestartableSandbox, type RunningSandbox, sandboxForFile } from '../support/sandbox.js';
import { checkedFetch, eventually, get, isErrorBody, post, send, upload } from './http.js';

/** A PDF of one page per line of text (Helvetica), with its cross-reference table: what a PDF writer makes. */
function tinyPdf(pages: string[]): Buffer {
  const fonts = 3 + pages.length * 2;
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    ...pages.flatMap((line, i) => {
      const stream = `BT /F1 12 Tf 72 720 Td (${line.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`;
      return [
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + i * 2} 0 R /Resources << /Font << /F1 ${fonts} 0 R >> >> >>`,
        `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
      ];
    }),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const done = (sb: RunningSandbox, id: string) =>
  eventually(async () => {
    const f = (await get(sb, `/files/${id}`)).body.file;
    return f.status === 'processing' ? undefined : f;
  });

describe('files', () => {
  const sb = sandboxForFile({ seed: false, maxUploadBytes: 4096 });

  test('upload stores the bytes by id, extracts text, and serves both with the key', async () => {
    const r = await upload(sb, 'notes.md', '# Notes\n\nhello wörld\n');
    assert.equal(r.status, 201);
    assert.equal(r.body.message, 'File uploaded successfully');
    const f = r.body.file;
    // The reference's File record (docs.callhq.ai list files) names the spec's "the service" object organization.
    assert.deepEqual(Object.keys(f.organization).sort(), ['id', 'name']);
    assert.ok(!('service' in f));
    assert.equal(f.name, 'notes.md');
    assert.equal(f.bytes, Buffer.byteLength('# Notes\n\nhello wörld\n'));
    assert.equal(f.mimetype, 'text/markdown');
    assert.ok(['processing', 'done'].includes(f.status));
    assert.equal(f.url, `${sb.url}/files/${f.id}/content`);
    const finished = await done(sb, f.id);
    assert.equal(finished.status, 'done');
    assert.equal(finished.parsedTextBytes, String(f.bytes));
    const content = await send(sb, 'GET', new URL(finished.url).pathname);
    assert.equal(content.status, 200);
    assert.equal(content.text, '# Notes\n\nhello wörld\n');
    const text = await send(sb, 'GET', new URL(finished.parsedTextUrl).pathname + new URL(finished.parsedTextUrl).search);
    assert.equal(text.text, '# Notes\n\nhello wörld\n');
    const noKey = await checkedFetch(sb.url, finished.url.slice(sb.url.length));
    assert.equal(noKey.status, 401);
    // On disk by id, never by name.
    assert.ok(existsSync(join(sb.dataDir, 'files', f.id)));
    assert.ok(!readdirSync(join(sb.dataDir, 'files')).includes('notes.md'));
  });

  test("a PDF's text is extracted page by page, and an assistant answers from it; a broken PDF is failed", async () => {
    const f = (await upload(sb, 'pricing.pdf', tinyPdf(['If the caller asks about pricing, say the Zephyr costs 42 dollars.', 'Open 9 to 5.']))).body.file;
    assert.equal(f.mimetype, 'application/pdf');
    const finished = await done(sb, f.id);
    assert.equal(finished.status, 'done');
    const text = await send(sb, 'GET', new URL(finished.parsedTextUrl).pathname + new URL(finished.parsedTextUrl).search);
    assert.equal(text.text, 'If the caller asks about pricing, say the Zephyr costs 42 dollars.\n\nOpen 9 to 5.');
    const a = (await post(sb, '/assistants', { name: 'P', model: { provider: 'openai', model: 'gpt-4o', knowledgeBase: { fileIds: [f.id] } } })).body.assistant;
    const session = (await post(sb, '/sessions', { assistantId: a.id })).body.session;
    const reply = (await post(sb, '/chats', { sessionId: session.id, input: 'How much is the Zephyr?' })).body.chat.output[0].content;
    assert.match(reply, /42 dollars/);
    const broken = (await upload(sb, 'broken.pdf', '%PDF-1.4 not really')).body.file;
    assert.equal((await done(sb, broken.id)).status, 'failed');
  });

  test('csv and json are extracted; other types are done without text', async () => {
    for (const [name, mimetype, hasText] of [
      ['prices.csv', 'text/csv', true],
      ['data.json', 'application/json', true],
      ['logo.png', 'image/png', false],
      ['blob', 'application/octet-stream', false],
    ] as const) {
      const f = (await upload(sb, name, 'a,b\n1,2\n')).body.file;
      assert.equal(f.mimetype, mimetype, name);
      const finished = await done(sb, f.id);
      assert.equal(finished.status, 'done');
      assert.equal(finished.parsedTextBytes !== null, hasText, name);
      if (!hasText) assert.equal((await get(sb, `/files/${f.id}/content?format=text`)).status, 404);
    }
  });

  test('names with ../, NUL, control and bidi characters are stored safely', async () => {
    const cases: [string, string][] = [
      ['../../etc/passwd', 'passwd'],
      ['..', 'upload'],
      ['evil\u0000name.txt', 'evilname.txt'],
      ['tab\tand.md', 'taband.md'],
      ['\u202Egnp.exe', 'gnp.exe'],
      ['.hidden', 'hidden'],
      ['日本語のファイル.txt', '日本語のファイル.txt'],
    ];
    for (const [raw, expected] of cases) {
      const r = await upload(sb, raw, 'x');
      assert.equal(r.status, 201, raw);
      assert.equal(r.body.file.name, expected, JSON.stringify(raw));
    }
    // A raw header, so the client cannot escape the control characters first.
    const raw = await send(
      sb,
      'POST',
      '/files',
      '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a\u0001b\u0000c\u007f.txt"\r\n\r\nabc\r\n--xyz--\r\n',
      {
        'content-type': 'multipart/form-data; boundary=xyz',
      },
    );
    assert.equal(raw.status, 201, raw.text);
    assert.equal(raw.body.file.name, 'abc.txt');
    assert.ok(!existsSync(join(sb.dataDir, '..', 'passwd')));
  });

  test('an empty file is fine', async () => {
    const r = await upload(sb, 'empty.txt', '');
    assert.equal(r.status, 201);
    assert.equal(r.body.file.bytes, 0);
    const finished = await done(sb, r.body.file.id);
    assert.equal(finished.status, 'done');
    assert.equal(finished.parsedTextBytes, '0');
  });

  test('an upload over the limit is 413 and leaves nothing behind', async () => {
    const before = (await get(sb, '/files?limit=100')).body.pagination.total;
    const r = await upload(sb, 'big.txt', 'x'.repeat(4097));
    assert.equal(r.status, 413);
    assert.ok(isErrorBody(r.body, 413));
    assert.match(r.body.message, /4096 bytes/);
    assert.equal((await get(sb, '/files?limit=100')).body.pagination.total, before);
    assert.deepEqual(readdirSync(join(sb.dataDir, 'uploads')), []);
    const exact = await upload(sb, 'exact.txt', 'x'.repeat(4096));
    assert.equal(exact.status, 201);
  });

  test('a refused upload leaves no record and no bytes: two file parts, or a file and too many fields', async () => {
    const before = (await get(sb, '/files?limit=100')).body.pagination.total;
    // Extracted text (<id>.txt) of earlier uploads may still land meanwhile; count the bytes files.
    const stored = () =>
      readdirSync(join(sb.dataDir, 'files'))
        .filter((f) => !f.endsWith('.txt'))
        .sort();
    const filesBefore = stored();
    const two = new FormData();
    two.append('file', new Blob(['first']), 'a.txt');
    two.append('file', new Blob(['second']), 'b.txt');
    const many = new FormData();
    many.append('file', new Blob(['the file']), 'c.txt');
    for (let i = 0; i < 20; i++) many.append(`field${i}`, 'v');
    for (const form of [two, many]) {
      const r = await send(sb, 'POST', '/files', form);
      assert.equal(r.status, 413, r.text);
      assert.ok(isErrorBody(r.body, 413));
    }
    assert.equal((await get(sb, '/files?limit=100')).body.pagination.total, before, 'no record');
    assert.deepEqual(stored(), filesBefore, 'no bytes');
    assert.deepEqual(readdirSync(join(sb.dataDir, 'uploads')), []);
  });

  test('every client reads the 413 of a body far over the limit (no ECONNRESET, no stall)', async () => {
    const attempt = async (path: string, body: BodyInit, headers: Record<string, string> = {}) => {
      try {
        const r = await checkedFetch(sb.url, path, {
          method: 'POST',
          headers: { 'x-api-key': sb.apiKey, ...headers },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await r.arrayBuffer();
        return r.status;
      } catch (err) {
        return String((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name);
      }
    };
    const form = (size: number) => {
      const f = new FormData();
      f.append('file', new Blob([new Uint8Array(size)]), 'huge.bin');
      return f;
    };
    const answers: unknown[] = [];
    for (const size of [64 * 1024, 1024 * 1024, 16 * 1024 * 1024]) {
      for (let i = 0; i < 4; i++) answers.push(await attempt('/files', form(size)));
    }
    answers.push(...(await Promise.all(Array.from({ length: 4 }, () => attempt('/files', form(4 * 1024 * 1024))))));
    for (const size of [2, 16])
      answers.push(await attempt('/assistants', `{"name":"${'x'.repeat(size * 1024 * 1024)}"}`, { 'content-type': 'application/json' }));
    assert.deepEqual(answers, Array(answers.length).fill(413));
  });

  test('a missing part is 400, a JSON body 415', async () => {
    const other = await upload(sb, 'a.txt', 'x', 'document');
    assert.equal(other.status, 400);
    assert.match(other.body.message, /^file is required/);
    const json = await post(sb, '/files', { file: 'x' });
    assert.equal(json.status, 415);
    assert.ok(isErrorBody(json.body, 415));
    const broken = await send(sb, 'POST', '/files', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc', {
      'content-type': 'multipart/form-data; boundary=xyz',
    });
    assert.ok(broken.status === 400, `${broken.status} ${broken.text}`);
  });

  test('delete removes the record, the bytes and the id from knowledge bases', async () => {
    const f = (await upload(sb, 'kb.txt', 'Opening hours: 9 to 5.')).body.file;
    await done(sb, f.id);
    const a = (await post(sb, '/assistants', { name: 'K', knowledgeBase: { fileIds: [f.id] }, model: { knowledgeBase: { fileIds: [f.id] } } })).body.assistant;
    const r = await send(sb, 'DELETE', `/files/${f.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.message, 'File deleted successfully');
    assert.equal((await get(sb, `/files/${f.id}`)).status, 404);
    assert.equal((await send(sb, 'DELETE', `/files/${f.id}`)).status, 404);
    assert.ok(!existsSync(join(sb.dataDir, 'files', f.id)));
    const after = (await get(sb, `/assistants/${a.id}`)).body.assistant;
    assert.deepEqual(after.knowledgeBase.fileIds, []);
    assert.deepEqual(after.model.knowledgeBase.fileIds, []);
  });
});

describe('file paging', () => {
  const sb = sandboxForFile({ seed: false });

  test('pages walk every file once, newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await upload(sb, `f${i}.txt`, `file ${i}`)).body.file.id);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await get(sb, `/files?page=${page}&limit=3`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.pagination, { total: 7, page, limit: 3, totalPages: 3 });
      seen.push(...r.body.files.map((f: any) => f.id));
    }
    assert.deepEqual(seen, [...ids].reverse());
    const beyond = await get(sb, '/files?page=9&limit=3');
    assert.deepEqual(beyond.body.files, []);
    const dflt = await get(sb, '/files');
    // The reference's defaults (docs.callhq.ai list files): page 1, limit 10.
    assert.equal(dflt.body.pagination.limit, 10);
    assert.equal(dflt.body.pagination.page, 1);
  });

  test('bad page or limit is a 400 naming it', async () => {
    for (const [q, name] of [
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=-3', 'limit'],
    ]) {
      const r = await get(sb, `/files?${q}`);
      assert.equal(r.status, 400, q);
      assert.match(r.body.message, new RegExp(`^${name} must be`));
    }
  });
});

describe('file storage after a crash', () => {
  test('a restart clears abandoned uploads and bytes without a record, keeping recorded files and live uploads', async () => {
    const { rmSync, writeFileSync } = await import('node:fs');
    const first = await startRestartableSandbox({ seed: false });
    const { dataDir } = first;
    try {
      const kept = (await upload(first, 'kept.txt', 'keep me')).body.file;
      await done(first, kept.id);
      await first.stop();
      writeFileSync(join(dataDir, 'uploads', 'abc.part'), 'half');
      writeFileSync(join(dataDir, 'uploads', `def.${2 ** 30}.part`), 'its writer is gone');
      const live = `ghi.${process.pid}.part`;
      writeFileSync(join(dataDir, 'uploads', live), 'still being written');
      writeFileSync(join(dataDir, 'files', 'no-such-record'), 'orphan');
      // On a new port: fetch may still hold a socket to the one before.
      await first.restart({ port: 0 });
      const again = first;
      assert.deepEqual(readdirSync(join(dataDir, 'uploads')), [live]);
      rmSync(join(dataDir, 'uploads', live));
      assert.deepEqual(readdirSync(join(dataDir, 'files')).sort(), [kept.id, `${kept.id}.txt`].sort());
      assert.equal((await send(again, 'GET', `/files/${kept.id}/content`)).text, 'keep me');
    } finally {
      await first.close();
    }
  });
});
