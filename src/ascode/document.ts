// An assistant as a YAML document: what `assistants pull` writes, `push` and `diff` read, and the
// console's `E` opens in $EDITOR. One layout for all of them: `id` first, then the spec's fields in
// the spec's order (the order of the zod schemas), then any field the service returned that the
// spec does not name, under its own name; multi-line strings as literal block scalars, so a
// prompt diffs line by line in git.
import { Document, isMap, LineCounter, parseDocument } from 'yaml';
import { AliasBombError, inertYaml, valueOf } from '../yaml.js';
import { escapeLine } from '../format/escape.js';
import { AssistantFileSchema, AssistantInputSchema, ModelSchema, TranscriberSchema, VoiceSchema, type Assistant } from '../api/schemas.js';
import { brandError, InputError } from '../api/errors.js';
import { fieldPath } from './diff.js';

/** An assistant as a file holds it: plain data, keys in file order. */
export type FileValue = Record<string, unknown>;

/** Set by the service, never written to a file nor sent. */
const SERVER_FIELDS: readonly string[] = ['createdAt', 'updatedAt'];

const ORDER: Record<string, readonly string[]> = {
  '': ['id', ...Object.keys(AssistantInputSchema.shape)],
  voice: Object.keys(VoiceSchema.shape),
  transcriber: Object.keys(TranscriberSchema.shape),
  model: Object.keys(ModelSchema.shape),
  hangupUsingPrompt: ['enabled', 'prompt'],
};

const YAML_OPTIONS = { blockQuote: 'literal', lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false } as const;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function ordered(value: Record<string, unknown>, order: readonly string[] | undefined): FileValue {
  const out: FileValue = {};
  for (const k of order ?? []) if (value[k] !== undefined) out[k] = value[k];
  for (const [k, v] of Object.entries(value)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

/** The service's record as a file holds it: spec order, server-set fields dropped, unknown fields kept. */
export function toFileValue(a: Assistant): FileValue {
  const top = Object.fromEntries(Object.entries(a).filter(([k]) => !SERVER_FIELDS.includes(k)));
  const value = ordered(top, ORDER['']);
  for (const key of ['voice', 'transcriber', 'model', 'hangupUsingPrompt']) {
    if (isPlainObject(value[key])) value[key] = ordered(value[key], ORDER[key]);
  }
  return value;
}

/** The YAML text of an assistant; `header` lines go on top as comments (the console's error note). */
export function renderAssistantYaml(value: FileValue, header: readonly string[] = []): string {
  return headerComment(header) + inertYaml(new Document(value, YAML_OPTIONS), YAML_OPTIONS);
}

/** Lines as YAML comments, one `# ` line each (a line break in one starts another). */
export function headerComment(lines: readonly string[]): string {
  return lines
    .flatMap((l) => l.split(/\r?\n/))
    .map((l) => `# ${escapeLine(l)}`.trimEnd() + '\n')
    .join('');
}

/** Invalid YAML or a field of the wrong type: names the file, line and column (exit 2: nothing is sent). */
export class AssistantFileError extends InputError {
  override name = 'AssistantFileError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(`${file}:${line}:${column}: ${problem}`);
  }
}

export interface ParsedAssistantFile {
  /** The fields as written (unknown fields kept), validated against AssistantFileSchema. */
  value: FileValue;
  id?: string;
}

/** Lines starting with `#` at the top of the text: the console's error note, dropped on re-read. */
export function withoutHeaderComments(text: string): string {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.startsWith('#')) i++;
  return lines.slice(i).join('\n');
}

/** Parses and checks one assistant file; throws AssistantFileError naming line and column. */
export function parseAssistantYaml(text: string, file: string): ParsedAssistantFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined) => lineCounter.linePos(offset ?? 0);
  const problem = doc.errors[0];
  if (problem) {
    const { line, col } = at(problem.pos[0]);
    throw new AssistantFileError(file, line, col, `invalid YAML: ${problem.message.split('\n')[0]}`);
  }
  let value: unknown;
  try {
    value = valueOf(doc);
  } catch (err) {
    if (!(err instanceof AliasBombError)) throw err;
    const { line, col } = at(err.offset);
    throw new AssistantFileError(file, line, col, err.message);
  }
  if (!isPlainObject(value)) {
    const { line, col } = at(doc.contents?.range?.[0]);
    throw new AssistantFileError(file, line, col, 'the file must hold one assistant: a mapping of its fields (name: …, model: …)');
  }
  const checked = AssistantFileSchema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const { line, col } = at(nodeStart(doc, path));
    throw new AssistantFileError(file, line, col, `${fieldPath(path) || 'the file'}: ${issue.message}`);
  }
  const id = typeof value.id === 'string' && value.id.trim() !== '' ? value.id : undefined;
  return { value, ...(id ? { id } : {}) };
}

/** Where the value at `path` starts in the text; the nearest enclosing node when that key is absent. */
function nodeStart(doc: Document, path: (string | number)[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return node.range[0];
  }
  return undefined;
}

/**
 * The file's text with `id: <id>` as its first field and everything else exactly as it was
 * (comments, quoting, order): push writes back the id of an assistant it created.
 */
export function withIdWritten(text: string, id: string): string {
  const doc = parseDocument(text);
  const contents = doc.contents;
  const line = inertYaml(new Document({ id }, YAML_OPTIONS), YAML_OPTIONS);
  if (isMap(contents) && !contents.flow && !contents.has('id') && contents.range) {
    const start = contents.range[0];
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    if (start === lineStart) return text.slice(0, start) + line + text.slice(start);
  }
  // A flow mapping, an indented one, or an `id` already there (empty): set it and re-render.
  if (isMap(contents)) {
    contents.delete('id');
    contents.items.unshift(doc.createPair('id', id));
  }
  return inertYaml(doc);
}

brandError(AssistantFileError, 'AssistantFileError');
