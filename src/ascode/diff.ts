// What differs between an assistant file and the service, and what to send: one module for
// `assistants diff`, `assistants push` and the console's `E`, so they can never disagree.
//
// Three copies of an assistant meet here, all as file values (document.ts):
//   service - what the service holds now;
//   file    - what the user wrote (the file, or the editor's text);
//   base    - what the service held when the file was last pulled or pushed.
// A top-level field absent from the file is not managed by it: never diffed, never sent.
// The service replaces whole top-level fields on PATCH, so a patch carries whole top-level fields.
// No `yaml` here (document.ts has it): the console loads this with its screens, the YAML only on `E`.
import type { AssistantInput, KbFile } from '../api/schemas.js';
import { escapeLine, escapeText, jsonText } from '../format/escape.js';
import type { FileValue } from './document.js';

export interface FieldChange {
  /** `model.temperature`, `model.messages[0].content` */
  path: string;
  /** The service's value (undefined: none). */
  from: unknown;
  /** The file's value (undefined: none). */
  to: unknown;
}

/** `model.messages[0].content` from a path of keys and indexes. */
export function fieldPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  // null and absent are the same: the sandbox drops nulls, a file may spell one out.
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return Object.is(a, b);
}

function leafChanges(from: unknown, to: unknown, path: (string | number)[], out: FieldChange[]): void {
  if (sameValue(from, to)) return;
  if (isPlainObject(from) && isPlainObject(to)) {
    const keys = [...Object.keys(from), ...Object.keys(to).filter((k) => !(k in from))];
    for (const k of keys) leafChanges(from[k], to[k], [...path, k], out);
    return;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    for (let i = 0; i < Math.max(from.length, to.length); i++) leafChanges(from[i], to[i], [...path, i], out);
    return;
  }
  out.push({ path: fieldPath(path), from, to });
}

/** The top-level fields the file manages (all but `id`). */
function managedKeys(file: FileValue): string[] {
  return Object.keys(file).filter((k) => k !== 'id' && file[k] !== undefined);
}

/** Every leaf that differs, service → file, in the file's field order. */
export function fieldChanges(service: FileValue, file: FileValue): FieldChange[] {
  const out: FieldChange[] = [];
  for (const k of managedKeys(file)) leafChanges(service[k], file[k], [k], out);
  return out;
}

/** The PATCH body: each top-level field the file changes, whole. Empty: nothing to send. */
export function patchFor(service: FileValue, file: FileValue): AssistantInput {
  const patch: Record<string, unknown> = {};
  for (const k of managedKeys(file)) if (!sameValue(service[k], file[k])) patch[k] = file[k];
  return patch as AssistantInput;
}

/** The POST body of a file without an id. */
export function createBody(file: FileValue): AssistantInput {
  const body: Record<string, unknown> = {};
  for (const k of managedKeys(file)) body[k] = file[k];
  return body as AssistantInput;
}

export interface Drift {
  /** Top-level fields the service changed since the base copy. */
  onService: string[];
  /** Top-level fields the file changed since the base copy. */
  inFile: string[];
}

/** Whether the service changed since the base copy was taken; undefined when it did not. */
export function driftSince(base: FileValue, service: FileValue, file: FileValue): Drift | undefined {
  const keys = [...new Set([...Object.keys(base), ...Object.keys(service)])].filter((k) => k !== 'id');
  const onService = keys.filter((k) => !sameValue(base[k], service[k]));
  if (onService.length === 0) return undefined;
  const inFile = managedKeys(file).filter((k) => !sameValue(base[k], file[k]));
  return { onService, inFile };
}

/** `since`: when the base copy was taken, in the user's words. */
export function describeDrift(d: Drift, since = 'the pull'): string {
  const here = d.inFile.length ? d.inFile.join(', ') : 'nothing';
  return `changed on the service since ${since}: ${d.onService.join(', ')}; changed in the file: ${here}`;
}

// ---- knowledge-base files named by file name ----

export class KnowledgeBaseNameError extends Error {
  override name = 'KnowledgeBaseNameError';
}

/**
 * `knowledgeBase: { files: [returns-policy.md, file_123] }` (top level and under `model`) as the
 * service takes it, `{ fileIds: [...] }`. Each entry is a file id or a file name; an unknown or
 * ambiguous name throws, naming it.
 */
export function resolveKnowledgeBase(file: FileValue, files: readonly KbFile[]): FileValue {
  const resolveOne = (entry: string, where: string): string => {
    if (files.some((f) => f.id === entry)) return entry;
    const named = files.filter((f) => f.name === entry);
    if (named.length === 1) return named[0]!.id;
    if (named.length === 0)
      throw new KnowledgeBaseNameError(`${where}: no knowledge-base file is named or has the id "${entry}" (switchboard files list shows them)`);
    throw new KnowledgeBaseNameError(
      `${where}: ${named.length} knowledge-base files are named "${entry}" (${named.map((f) => f.id).join(', ')}); name it by id instead`,
    );
  };
  const resolveKb = (kb: unknown, where: string): unknown => {
    if (!isPlainObject(kb) || !Array.isArray(kb.files)) return kb;
    const { files: names, ...rest } = kb;
    const ids = (names as string[]).map((n, i) => resolveOne(n, `${where}.files[${i}]`));
    const fileIds = [...new Set([...(Array.isArray(rest.fileIds) ? (rest.fileIds as string[]) : []), ...ids])];
    return { ...rest, fileIds };
  };
  const out: FileValue = { ...file };
  if (out.knowledgeBase !== undefined) out.knowledgeBase = resolveKb(out.knowledgeBase, 'knowledgeBase');
  if (isPlainObject(out.model) && out.model.knowledgeBase !== undefined)
    out.model = { ...out.model, knowledgeBase: resolveKb(out.model.knowledgeBase, 'model.knowledgeBase') };
  return out;
}

/** Whether the file names any knowledge-base file by `files` (then the file list is needed). */
export function namesKnowledgeBaseFiles(file: FileValue): boolean {
  const kb = file.knowledgeBase;
  const modelKb = isPlainObject(file.model) ? file.model.knowledgeBase : undefined;
  return [kb, modelKb].some((k) => isPlainObject(k) && Array.isArray(k.files));
}

// ---- showing changes ----

export type Paint = (tone: 'red' | 'green' | 'cyan' | 'dim' | 'bold', text: string) => string;
const plain: Paint = (_tone, text) => text;

/** Shown as lines (a unified diff) rather than `a → b`: multi-line text, and text too long to read on one line. */
const LONG_TEXT = 100;
const isMultiline = (v: unknown): v is string => typeof v === 'string' && (v.includes('\n') || v.length > LONG_TEXT);

/** A value on one line, safe on a terminal. */
function shownValue(v: unknown): string {
  if (v === undefined || v === null) return '(none)';
  return escapeLine(jsonText(v));
}

/**
 * The lines that show one change: `model.temperature: 0.3 → 0.5`, or for a multi-line string
 * (a prompt) its name and a unified diff. Service text is escaped here.
 */
export function changeLines(c: FieldChange, paint: Paint = plain): string[] {
  const name = escapeLine(c.path);
  if (isMultiline(c.from) || isMultiline(c.to)) {
    const from = typeof c.from === 'string' ? c.from : '';
    const to = typeof c.to === 'string' ? c.to : '';
    return [`${name}:`, ...unifiedDiff(from, to).map((l) => paintDiffLine(escapeText(l), paint))];
  }
  return [`${name}: ${paint('red', shownValue(c.from))} → ${paint('green', shownValue(c.to))}`];
}

function paintDiffLine(line: string, paint: Paint): string {
  if (line.startsWith('@@')) return paint('cyan', line);
  if (line.startsWith('-')) return paint('red', line);
  if (line.startsWith('+')) return paint('green', line);
  return line;
}

/**
 * A unified diff of two texts (service → file), hunks with `context` lines around each change.
 * Myers' shortest edit script over lines; texts that differ in too many lines are shown as one replacement.
 */
export function unifiedDiff(a: string, b: string, context = 3): string[] {
  const x = a.split('\n');
  const y = b.split('\n');
  const ops = lineOps(x, y);
  const out: string[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.op === ' ') {
      i++;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change near it.
    const start = Math.max(0, i - context);
    let end = i;
    while (end < ops.length) {
      if (ops[end]!.op !== ' ') {
        end++;
        continue;
      }
      let run = 0;
      while (end + run < ops.length && ops[end + run]!.op === ' ') run++;
      if (end + run >= ops.length || run > context * 2) {
        end = Math.min(ops.length, end + context);
        break;
      }
      end += run;
    }
    const hunk = ops.slice(start, end);
    const aStart = hunk.find((o) => o.op !== '+')?.ai ?? ops[start]!.ai;
    const bStart = hunk.find((o) => o.op !== '-')?.bi ?? ops[start]!.bi;
    const aLen = hunk.filter((o) => o.op !== '+').length;
    const bLen = hunk.filter((o) => o.op !== '-').length;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const o of hunk) out.push(`${o.op}${o.text}`);
    i = end;
  }
  return out;
}

interface LineOp {
  op: ' ' | '-' | '+';
  text: string;
  /** Index in a (for ' ' and '-') or where a would be; index in b likewise. */
  ai: number;
  bi: number;
}

/** Past this many changed lines a diff is shown as one replacement (the search costs D² memory). */
const MAX_EDIT_DISTANCE = 2000;

function lineOps(x: string[], y: string[]): LineOp[] {
  // Common head and tail first: an edit to a long prompt usually touches a few lines.
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const middle = shortestEdit(xs, ys, MAX_EDIT_DISTANCE) ?? [
    ...xs.map((t) => ({ op: '-' as const, text: t })),
    ...ys.map((t) => ({ op: '+' as const, text: t })),
  ];
  const ops: LineOp[] = [];
  for (let k = 0; k < head; k++) ops.push({ op: ' ', text: x[k]!, ai: k, bi: k });
  let ai = head;
  let bi = head;
  for (const o of middle) {
    ops.push({ ...o, ai, bi });
    if (o.op !== '+') ai++;
    if (o.op !== '-') bi++;
  }
  for (let k = 0; k < tail; k++) ops.push({ op: ' ', text: x[x.length - tail + k]!, ai: x.length - tail + k, bi: y.length - tail + k });
  return ops;
}

/**
 * Myers' O((N+M)·D) shortest edit script (the one git diff uses by default), deletions before
 * insertions; undefined when more than `maxD` lines change.
 */
function shortestEdit(a: string[], b: string[], maxD: number): { op: LineOp['op']; text: string }[] | undefined {
  const n = a.length;
  const m = b.length;
  // v[k] (k = x - y, stored at k + off): the furthest x reached on diagonal k; trace[d] is v before step d, over k in [-d-1, d+1].
  const off = n + m + 1;
  const v = new Int32Array(2 * off + 1);
  const trace: Int32Array[] = [];
  const limit = Math.min(n + m, maxD);
  let found = -1;
  for (let d = 0; d <= limit && found < 0; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  const out: { op: LineOp['op']; text: string }[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', text: a[--x]! });
      y--;
    }
    if (x === prevX) out.push({ op: '+', text: b[--y]! });
    else out.push({ op: '-', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    out.push({ op: ' ', text: a[--x]! });
    y--;
  }
  return out.reverse();
}
