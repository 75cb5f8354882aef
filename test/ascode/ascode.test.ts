// The one module behind `assistants diff/push` and the console's `E`: the YAML layout, errors
// with line and column, id write-back that keeps the file, field changes, patches, drift and
// the unified diff of prompts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAssistantYaml, renderAssistantYaml, toFileValue, withIdWritten, AssistantFileError } from '../../src/ascode/document.js';
import { changeLines, driftSince, fieldChanges, patchFor, resolveKnowledgeBase, unifiedDiff, KnowledgeBaseNameError } from '../../src/ascode/diff.js';
import { AssistantSchema, type KbFile } from '../../src/api/schemas.js';

const assistant = AssistantSchema.parse({
  createdAt: '2026-01-01T00:00:00Z',
  vendorField: { keep: true },
  model: { temperature: 0.3, provider: 'openai', messages: [{ role: 'system', content: 'one\ntwo\nthree' }] },
  name: 'Front desk',
  id: 'asst_1',
  updatedAt: '2026-01-02T00:00:00Z',
  description: 'Desk',
});

describe('the YAML document', () => {
  test('id first, the spec order, unknown fields kept after, server fields dropped, prompts as blocks', () => {
    const text = renderAssistantYaml(toFileValue(assistant));
    assert.equal(
      text,
      'id: asst_1\nname: Front desk\ndescription: Desk\nmodel:\n  provider: openai\n  temperature: 0.3\n  messages:\n    - role: system\n      content: |-\n' +
        '        one\n        two\n        three\nvendorField:\n  keep: true\n',
    );
    assert.deepEqual(parseAssistantYaml(text, 'f.yaml').value, toFileValue(assistant));
  });

  test('invalid YAML and wrong types name the file, line and column', () => {
    const bad = (text: string) => {
      try {
        parseAssistantYaml(text, 'bot.assistant.yaml');
      } catch (err) {
        assert.ok(err instanceof AssistantFileError);
        return err.message;
      }
      assert.fail('accepted');
    };
    assert.match(bad('name: a\nmodel:\n  temperature: [1\n'), /^bot\.assistant\.yaml:\d+:\d+: invalid YAML/);
    assert.match(bad('name: a\nmodel:\n  temperature: hot\n'), /^bot\.assistant\.yaml:3:16: model\.temperature: .*number/);
    assert.match(bad('name: a\nstatus: maybe\n'), /^bot\.assistant\.yaml:2:9: status: /);
    assert.match(bad('- a\n- b\n'), /^bot\.assistant\.yaml:1:1: the file must hold one assistant/);
    assert.match(bad('name: a\nname: b\n'), /^bot\.assistant\.yaml:2:1: invalid YAML: .*unique/i);
  });

  test('the id is written in as the first field; comments, quoting and order kept', () => {
    const text = '# pilot\nname: "Bot"   # shown\n\ndescription: |\n  x\n';
    assert.equal(withIdWritten(text, 'asst_9'), '# pilot\nid: asst_9\nname: "Bot"   # shown\n\ndescription: |\n  x\n');
    assert.match(withIdWritten('{ name: Bot }\n', 'asst_9'), /id: asst_9[\s\S]*name: Bot/);
  });
});

describe('changes, patches and drift', () => {
  const service = toFileValue(assistant);
  test('leaf paths service → file; a top-level field absent from the file is not managed', () => {
    const file = { id: 'asst_1', description: 'Desk 2', model: { ...(service.model as object), temperature: 0.5 } };
    assert.deepEqual(fieldChanges(service, file), [
      { path: 'description', from: 'Desk', to: 'Desk 2' },
      { path: 'model.temperature', from: 0.3, to: 0.5 },
    ]);
    assert.deepEqual(Object.keys(patchFor(service, file)), ['description', 'model']);
    assert.deepEqual(changeLines(fieldChanges(service, file)[1]!), ['model.temperature: 0.3 → 0.5']);
  });

  test('drift names the fields changed on each side since the base copy', () => {
    const now = { ...service, name: 'Renamed' };
    const file = { ...service, description: 'Mine' };
    assert.deepEqual(driftSince(service, now, file), { onService: ['name'], inFile: ['description'] });
    assert.equal(driftSince(service, service, file), undefined);
  });

  test('a prompt as a unified diff, escaped', () => {
    assert.deepEqual(unifiedDiff('a\nb\nc\nd\ne\nf\ng\nh', 'a\nb\nc\nd\nE\nf\ng\nh', 1), ['@@ -4,3 +4,3 @@', ' d', '-e', '+E', ' f']);
    assert.deepEqual(unifiedDiff('a', 'a\nb'), ['@@ -1,1 +1,2 @@', ' a', '+b']);
    const lines = changeLines({ path: 'model.messages[0].content', from: 'hi\nthere', to: 'hi\n\u001b[31mthere' });
    assert.ok(
      lines.every((l) => !l.includes('\u001b')),
      'no raw ESC',
    );
    assert.ok(lines.includes('+\\x1b[31mthere'));
  });

  test('unified diffs rebuild both texts, and stay small for a long prompt with two far-apart edits', () => {
    let seed = 17;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: rnd(12) }, () => 'abc'[rnd(3)]!);
      const b = Array.from({ length: rnd(12) }, () => 'abc'[rnd(3)]!);
      const lines = unifiedDiff(a.join('\n'), b.join('\n'), 1000);
      if (a.join('\n') === b.join('\n')) {
        assert.deepEqual(lines, []);
        continue;
      }
      const body = lines.slice(1);
      assert.deepEqual(
        body.filter((l) => l[0] !== '+').map((l) => l.slice(1)),
        a.join('\n').split('\n'),
        `old side of ${a} → ${b}`,
      );
      assert.deepEqual(
        body.filter((l) => l[0] !== '-').map((l) => l.slice(1)),
        b.join('\n').split('\n'),
        `new side of ${a} → ${b}`,
      );
    }
    const prompt = Array.from({ length: 3000 }, (_, i) => `Rule ${i}: be helpful.`);
    const edited = prompt.map((l, i) => (i === 100 ? 'Rule 100: be brief.' : i === 2900 ? 'Rule 2900: be kind.' : l));
    const lines = unifiedDiff(prompt.join('\n'), edited.join('\n'));
    assert.deepEqual(
      lines.filter((l) => l.startsWith('@@')),
      ['@@ -98,7 +98,7 @@', '@@ -2898,7 +2898,7 @@'],
    );
    assert.deepEqual(
      lines.filter((l) => /^[-+]/.test(l)),
      ['-Rule 100: be helpful.', '+Rule 100: be brief.', '-Rule 2900: be helpful.', '+Rule 2900: be kind.'],
    );
  });

  test('knowledge-base files by name or id; unknown and ambiguous names fail', () => {
    const files = [
      { id: 'f1', name: 'faq.md' },
      { id: 'f2', name: 'dup.md' },
      { id: 'f3', name: 'dup.md' },
    ] as KbFile[];
    assert.deepEqual(resolveKnowledgeBase({ knowledgeBase: { files: ['faq.md', 'f2'] } }, files), { knowledgeBase: { fileIds: ['f1', 'f2'] } });
    assert.throws(
      () => resolveKnowledgeBase({ knowledgeBase: { files: ['nope.md'] } }, files),
      (e: Error) => e instanceof KnowledgeBaseNameError && /knowledgeBase\.files\[0\]: no knowledge-base file .*"nope\.md"/.test(e.message),
    );
    assert.throws(
      () => resolveKnowledgeBase({ model: { knowledgeBase: { files: ['dup.md'] } } }, files),
      /model\.knowledgeBase\.files\[0\]: 2 knowledge-base files are named "dup\.md" \(f2, f3\)/,
    );
  });
});
