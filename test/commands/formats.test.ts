// Every command's output parses in every format, run through the built binary against a real sandbox.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxForCli } from '../support/sandbox.js';
import { runCli, startCli, type CliResult } from '../support/cli.js';
import { parseCsv } from './csv.js';

const on = sandboxForCli();

/** Runs the binary; every run must keep the key out of its output and escape codes out of a pipe. */
async function cli(args: string[], stdin?: string): Promise<CliResult> {
  const r = await runCli(args, { env: on.env, stdin });
  assert.ok(!r.stdout.includes(on.sb.apiKey) && !r.stderr.includes(on.sb.apiKey), `the key leaked from ${args.join(' ')}`);
  assert.ok(!r.stdout.includes('\u001b'), `escape codes in piped output of ${args.join(' ')}`);
  return r;
}

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await cli(args, stdin);
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Checks one command in all four formats and returns its json records. */
async function checkList(args: string[], idKey = 'id'): Promise<Record<string, unknown>[]> {
  const [json, idsText, csv, plain] = await Promise.all([ok([...args, '-o', 'json']), ok([...args, '-o', 'ids']), ok([...args, '-o', 'csv']), ok(args)]);
  const records = JSON.parse(json) as Record<string, unknown>[];
  assert.ok(Array.isArray(records), `${args.join(' ')} -o json is not an array`);
  assert.ok(records.length > 0, `${args.join(' ')} returned nothing to check`);

  const ids = idsText.split('\n').filter((l) => l !== '');
  assert.deepEqual(
    ids,
    records.map((r) => r[idKey]),
  );

  const rows = parseCsv(csv);
  assert.equal(rows.length, records.length + 1, 'csv: a header row and one row per record');
  for (const row of rows) assert.equal(row.length, rows[0].length, "csv: every row has the header's column count");
  assert.equal(rows[0][0], 'id');
  assert.deepEqual(
    rows.slice(1).map((r) => r[0]),
    records.map((r) => r[idKey]),
  );

  // Piped, the default table is plain: tab-separated, a header, one line per record.
  const lines = plain.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, records.length + 1);
  const width = lines[0].split('\t').length;
  assert.ok(width > 1);
  for (const line of lines) assert.equal(line.split('\t').length, width, `plain table row has ${width} cells: ${line}`);
  return records;
}

async function checkRecord(args: string[], id: string): Promise<Record<string, unknown>> {
  const record = JSON.parse(await ok([...args, '-o', 'json'])) as Record<string, unknown>;
  assert.equal(record.id, id);
  assert.equal((await ok([...args, '-o', 'ids'])).trim(), id);
  const rows = parseCsv(await ok([...args, '-o', 'csv']));
  assert.equal(rows.length, 2);
  assert.equal(rows[0].length, rows[1].length);
  const table = await ok(args);
  assert.match(table, new RegExp(`^id\\t${id}$`, 'm'), 'the plain record lists its fields as name<TAB>value');
  return record;
}

describe('output formats', () => {
  test('assistants list and get', async () => {
    const list = await checkList(['assistants', 'list']);
    const one = await checkRecord(['assistants', 'get', String(list[0].id)], String(list[0].id));
    assert.deepEqual(one.name, list[0].name);
  });

  test('numbers list', async () => {
    await checkList(['numbers', 'list']);
  });

  test('calls list (with filters) and get', async () => {
    const list = await checkList(['calls', 'list', '--limit', '7', '--after', '30d']);
    assert.equal(list.length, 7);
    const call = await checkRecord(['calls', 'get', String(list[0].id)], String(list[0].id));
    assert.ok('transcript' in call || 'messages' in call, 'calls get returns the full record');
  });

  test('files list and get', async () => {
    const list = await checkList(['files', 'list']);
    await checkRecord(['files', 'get', String(list[0].id)], String(list[0].id));
  });

  test('calls list --all pages past one request', async () => {
    const page = JSON.parse(await ok(['calls', 'list', '-o', 'json'])) as unknown[];
    const all = (await ok(['calls', 'list', '--all', '--limit', '50', '-o', 'ids'])).split('\n').filter(Boolean);
    assert.ok(all.length > 50, 'more calls than one page of 50');
    assert.equal(new Set(all).size, all.length, 'no call twice');
    assert.ok(all.length >= page.length);
  });

  test('--all streams: the first page arrives as one valid stream, and a reader that stops early ends it quietly', async () => {
    const run = startCli(['calls', 'list', '--all', '--limit', '10', '-o', 'ids'], { env: on.env });
    await new Promise<void>((resolve) => run.child.stdout!.once('data', () => resolve()));
    run.child.stdout!.destroy(); // like `| head -1`
    const r = await run.result;
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '', 'no EPIPE trace');

    const json = JSON.parse(await ok(['calls', 'list', '--all', '--limit', '25', '-o', 'json'])) as { id: string }[];
    const csv = parseCsv(await ok(['calls', 'list', '--all', '--limit', '25', '-o', 'csv']));
    assert.equal(csv.length, json.length + 1, 'one csv header across all pages');
    assert.deepEqual(
      csv.slice(1).map((row) => row[0]),
      json.map((c) => c.id),
    );
  });

  test('csv quotes commas, quotes and newlines (RFC 4180)', async () => {
    const name = 'Desk, "North"\nwing';
    const id = (await ok(['assistants', 'create', '--file', '-', '-o', 'ids'], JSON.stringify({ name }))).trim();
    const rows = parseCsv(await ok(['assistants', 'get', id, '-o', 'csv']));
    assert.equal(rows[1][rows[0].indexOf('name')], name);
    const plain = await ok(['assistants', 'get', id]);
    assert.match(plain, /^name\tDesk, "North" wing$/m, 'a plain cell stays on one line');
  });

  test('json keeps fields the table does not show', async () => {
    const [a] = JSON.parse(await ok(['assistants', 'list', '-o', 'json'])) as Record<string, unknown>[];
    const full = JSON.parse(await ok(['assistants', 'get', String(a.id), '-o', 'json'])) as Record<string, unknown>;
    assert.ok(Object.keys(full).length > 6, 'more fields than the table columns');
  });

  test('FORCE_COLOR colours a piped table; NO_COLOR and --no-color do not', async () => {
    const forced = await runCli(['numbers', 'list'], { env: { ...on.env, FORCE_COLOR: '1' } });
    assert.ok(forced.stdout.includes('\u001b['), 'FORCE_COLOR=1 colours');
    const off = await runCli(['numbers', 'list', '--no-color'], { env: { ...on.env, FORCE_COLOR: '1' } });
    assert.ok(!off.stdout.includes('\u001b'));
  });
});
