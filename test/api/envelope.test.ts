// The envelope forms and error-body styles, one by one, without a server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SERVICE_WORDS_MAX, serviceWords, unwrapList, unwrapRecord, unreadNote } from '../../src/api/envelope.js';

const rec = { id: 'a1', name: 'Front desk' };

describe('unwrapRecord', () => {
  for (const [body, envelope] of [
    [rec, 'bare'],
    [{ assistant: rec }, '{assistant}'],
    [{ data: rec }, '{data}'],
    [{ message: 'Assistant created successfully', data: rec }, '{message,data}'],
    [{ message: 'Assistant created successfully', assistant: rec }, '{message,assistant}'],
    [{ data: { assistant: rec } }, '{data:{assistant}}'],
  ] as const) {
    test(`${JSON.stringify(body)} is ${envelope}`, () => {
      assert.deepEqual(unwrapRecord(body, 'assistant'), { record: rec, envelope });
    });
  }

  test('a bare record keeps its own field called data', () => {
    const withData = { id: 'c1', data: { k: 1 } };
    assert.deepEqual(unwrapRecord(withData, 'call'), { record: withData, envelope: 'bare' });
  });

  test('a status line alone, an array, a string or nothing holds no record', () => {
    assert.equal(unwrapRecord({ message: 'Call queued' }, 'call'), undefined);
    assert.equal(unwrapRecord({ message: 'ok', success: true }, 'call'), undefined);
    assert.equal(unwrapRecord([rec], 'assistant'), undefined);
    assert.equal(unwrapRecord('Inbound agent configured successfully', 'phoneNumber'), undefined);
    assert.equal(unwrapRecord(undefined, 'call'), undefined);
  });
});

describe('unwrapList', () => {
  for (const [body, envelope, path] of [
    [[rec], 'bare', []],
    [{ assistants: [rec] }, '{assistants}', ['assistants']],
    [{ data: [rec] }, '{data}', ['data']],
    [{ items: [rec] }, '{items}', ['items']],
    [{ results: [rec], total: 1 }, '{results}', ['results']],
    [{ message: 'ok', data: { assistants: [rec] } }, '{data:{assistants}}', ['data', 'assistants']],
  ] as const) {
    test(`${JSON.stringify(body)} is ${envelope}`, () => {
      assert.deepEqual(unwrapList(body, 'assistants'), { list: [rec], envelope, path });
    });
  }

  test('no list in the body is undefined', () => {
    assert.equal(unwrapList({ message: 'hello' }, 'assistants'), undefined);
    assert.equal(unwrapList(rec, 'assistants'), undefined);
    assert.equal(unwrapList(undefined, 'assistants'), undefined);
  });
});

describe('serviceWords', () => {
  const json = (status: number, body: unknown) => ({ status, contentType: 'application/json', text: JSON.stringify(body), body });
  for (const [label, answer, words] of [
    ['a JSON string', json(400, 'name is required'), 'name is required'],
    ['an array of strings', json(400, ['name is required', 'voice is required']), 'name is required; voice is required'],
    ['{ message }', json(404, { message: 'Assistant not found' }), 'Assistant not found'],
    ['{ message: [...] }', json(400, { statusCode: 400, error: 'Bad Request', message: ['a', 'b'] }), 'a; b'],
    [
      '{ statusCode, error, message }',
      json(400, { statusCode: 400, error: 'Bad Request', message: 'customer.number must be E.164' }),
      'customer.number must be E.164',
    ],
    ['{ error: "…" }', json(401, { error: 'Invalid API key' }), 'Invalid API key'],
    [
      '{ error: { message, code } }',
      json(400, { error: { message: 'voiceId is required for sarvam', code: 'invalid_voice' } }),
      'voiceId is required for sarvam (invalid_voice)',
    ],
    ['{ errors: [{ message }] }', json(422, { errors: [{ message: 'name too long' }, { message: 'model unknown' }] }), 'name too long; model unknown'],
    ['{ errors: ["…"] }', json(422, { errors: ['name too long'] }), 'name too long'],
    ['{ detail }', json(422, { detail: 'limit must be at most 100' }), 'limit must be at most 100'],
    [
      'an HTML page with a title',
      {
        status: 502,
        contentType: 'text/html',
        text: '<html><head><title>Upstream &amp; co: down</title></head><body><h1>Oops</h1></body></html>',
        body: undefined,
      },
      'Upstream & co: down',
    ],
    [
      'an HTML page with a heading',
      { status: 404, contentType: 'text/html', text: '<html><body><h1>No <b>such</b> page</h1></body></html>', body: undefined },
      'No such page',
    ],
    [
      'an HTML page with only text',
      { status: 500, contentType: 'text/html', text: '<html><body><script>x()</script><p>Something\n  broke</p></body></html>', body: undefined },
      'Something broke',
    ],
    [
      'an HTML page whose title and heading only name the status',
      {
        status: 404,
        contentType: 'text/html',
        text: '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>Assistant not found</p></body></html>',
        body: undefined,
      },
      'Assistant not found',
    ],
    [
      'text/plain',
      { status: 200, contentType: 'text/plain', text: 'Inbound agent configured successfully\n', body: undefined },
      'Inbound agent configured successfully',
    ],
  ] as const) {
    test(`${label} becomes one line of the service's words`, () => {
      assert.equal(serviceWords(answer), words);
    });
  }

  test('nothing readable is undefined', () => {
    assert.equal(serviceWords({ status: 500, contentType: '', text: '', body: undefined }), undefined);
    assert.equal(serviceWords(json(500, { statusCode: 500 })), undefined);
  });

  test('a long answer is one bounded line', () => {
    const words = serviceWords({ status: 500, contentType: 'text/plain', text: 'line one\nline two '.repeat(200), body: undefined })!;
    assert.ok(!words.includes('\n'));
    assert.ok(words.length <= SERVICE_WORDS_MAX && words.endsWith('…'), words);
  });
});

test('unreadNote says what came back and that the write was done', () => {
  assert.equal(
    unreadNote('the service accepted the call', { status: 201, said: 'Call queued', problem: 'expected a call record, got an object with message' }),
    'the service accepted the call; its answer (201: "Call queued") held no record Switchboard can read (expected a call record, got an object with message)',
  );
});
