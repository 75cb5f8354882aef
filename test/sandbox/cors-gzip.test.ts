// For people integrating: --cors <origin> lets a browser app under development call the
// sandbox (off by default); large answers honour Accept-Encoding: gzip.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { sandboxForFile } from '../support/sandbox.js';
import { checkedFetch } from './http.js';

/** A raw GET (fetch would decompress on its own and hide the encoding). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CORS is off by default', () => {
  const sb = sandboxForFile({ seed: false });

  test('no CORS headers, and a preflight is not answered as one', async () => {
    const r = await checkedFetch(sb.url, `/assistants`, { headers: { 'x-api-key': sb.apiKey, origin: 'http://localhost:5173' } });
    assert.equal(r.headers.get('access-control-allow-origin'), null);
    // A preflight is CORS, not an operation of the document: plain fetch.
    const pre = await fetch(`${sb.url}/assistants`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
  });
});

describe('--cors <origin>', () => {
  const origin = 'http://localhost:5173';
  const sb = sandboxForFile({ cors: origin });

  test('a preflight from that origin is answered without a key, naming the key header', async () => {
    // A preflight is CORS, not an operation of the document: plain fetch.
    const pre = await fetch(`${sb.url}/assistants/abc`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), origin);
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /PATCH/);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /x-api-key/);
  });

  test('answers, errors included, carry the origin; another origin gets nothing', async () => {
    const ok = await checkedFetch(sb.url, `/assistants`, { headers: { 'x-api-key': sb.apiKey, origin } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), origin);
    assert.match(ok.headers.get('vary') ?? '', /origin/i);
    const denied = await checkedFetch(sb.url, `/assistants`, { headers: { origin } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), origin, 'the app can read why');
    const other = await checkedFetch(sb.url, `/assistants`, { headers: { 'x-api-key': sb.apiKey, origin: 'http://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });
});

describe('gzip', () => {
  const sb = sandboxForFile({ callPace: 1e9 });
  before(async () => {
    // Calls frozen on their timeline: the plain and gzipped reads must see the same page.
    const a = (await (await checkedFetch(sb.url, `/assistants`, { headers: { 'x-api-key': sb.apiKey } })).json()).assistants[0].id;
    const n = (await (await checkedFetch(sb.url, `/phone-numbers`, { headers: { 'x-api-key': sb.apiKey } })).json()).phoneNumbers[0].id;
    for (let i = 0; i < 30; i++) {
      await checkedFetch(sb.url, `/calls/outbound`, {
        method: 'POST',
        headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ assistantId: a, phoneNumberId: n, customer: { number: '+14155550100' } }),
      });
    }
  });

  test('a large answer is gzipped when asked, and the same JSON', async () => {
    const url = `${sb.url}/calls?limit=1000`;
    const plain = await rawGet(url, { 'x-api-key': sb.apiKey });
    const zipped = await rawGet(url, { 'x-api-key': sb.apiKey, 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.match(String(zipped.headers.vary), /accept-encoding/i);
    assert.deepEqual(JSON.parse(gunzipSync(zipped.body).toString()), JSON.parse(plain.body.toString()));
    assert.ok(zipped.body.length * 3 < plain.body.length, `${zipped.body.length} vs ${plain.body.length}`);
    const details = await rawGet(`${sb.url}/calls/details?limit=20`, { 'x-api-key': sb.apiKey, 'accept-encoding': 'gzip' });
    assert.equal(details.headers['content-encoding'], 'gzip');
  });

  test('a small answer is sent as is', async () => {
    const r = await rawGet(`${sb.url}/phone-numbers?nope=1`, { 'x-api-key': sb.apiKey, 'accept-encoding': 'gzip' });
    assert.equal(r.status, 400);
    assert.equal(r.headers['content-encoding'], undefined);
  });
});
