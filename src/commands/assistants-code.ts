// Assistants as code: `switchboard assistants pull | diff | push | clone`. The files and their
// base copies are src/ascode/dir.ts; what differs and what to send is src/ascode/diff.ts, which
// the console's `E` uses too. Loaded only when one of these commands runs (it brings `yaml`).
import { join } from 'node:path';
import type { VoiceAgentApi } from '../api/contract.js';
import { allFiles } from '../api/pager.js';
import { AssistantInputSchema, reportNotApplied, type Assistant } from '../api/schemas.js';
import { parseAssistantYaml, renderAssistantYaml, toFileValue, withIdWritten, type FileValue } from '../ascode/document.js';
import {
  changeLines,
  createBody,
  describeDrift,
  driftSince,
  fieldChanges,
  KnowledgeBaseNameError,
  namesKnowledgeBaseFiles,
  patchFor,
  resolveKnowledgeBase,
  type Drift,
  type FieldChange,
  type Paint,
} from '../ascode/diff.js';
import {
  assistantFilePaths,
  DuplicateIdError,
  pushLockPath,
  readAssistantFile,
  readAssistantFiles,
  readBase,
  slugOf,
  writeBase,
  writeFileAtomic,
  ASSISTANT_FILE_SUFFIX,
  type LocalAssistant,
} from '../ascode/dir.js';
import { UnreadableFileError } from '../config/files.js';
import { makeDirs } from '../config/private-dir.js';
import { escapeLine, jsonText } from '../format/escape.js';
import { confirm } from './files.js';
import { paint, printRecord, type OutputTarget } from './output.js';
import { ASSISTANT_COLUMNS } from './assistants.js';
import { EXIT, UsageError, writeErr } from './runtime.js';
import { noteUnread } from './written.js';
import { unreadNote } from '../api/envelope.js';
import { io } from './io.js';

const painter =
  (out: OutputTarget): Paint =>
  (tone, text) =>
    paint(out.color, tone, text);

const label = (a: { name?: string | null; id: string }) => `${escapeLine(a.name ?? '(no name)')} (${escapeLine(a.id)})`;

// ---- pull ----

/** The id each existing file holds, for files that parse: a re-pull rewrites the same file. */
function filesById(dir: string): Map<string, { path: string; value: FileValue }> {
  const byId = new Map<string, { path: string; value: FileValue }>();
  for (const path of assistantFilePaths(dir)) {
    try {
      const parsed = parseAssistantYaml(readAssistantFile(dir, path), path);
      if (parsed.id && !byId.has(parsed.id)) byId.set(parsed.id, { path, value: parsed.value });
    } catch (err) {
      // A file that is not one to read (a device, a fifo, a symlink out of the directory) stops the pull;
      // a broken one is left alone, and the assistant gets a file of its own.
      if (err instanceof UnreadableFileError) throw err;
    }
  }
  return byId;
}

/**
 * Writes the files; a file edited since its last pull (it differs from its base copy, or from
 * the service when it has none) is left alone unless `force`: a pull never loses an edit.
 * Returns the exit code: 1 when a file was left alone.
 */
export async function pullAssistants(api: VoiceAgentApi, out: OutputTarget, dir: string, ids: string[], force = false): Promise<number> {
  const assistants = ids.length ? await Promise.all(ids.map((id) => api.getAssistant(id))) : await api.listAssistants();
  makeDirs(dir);
  const byId = filesById(dir);
  const owned = new Set([...byId.values()].map((f) => f.path));
  const taken = new Set(assistantFilePaths(dir).filter((p) => !owned.has(p)));
  let kept = 0;
  let pulled = 0;
  for (const a of assistants) {
    const value = toFileValue(a);
    const existing = byId.get(a.id);
    let path = existing?.path;
    if (existing && !force && fieldChanges(readBase(dir, a.id) ?? value, existing.value).length > 0) {
      kept++;
      writeErr(`${existing.path}: not overwritten: it has changes not pushed (push them, or pull --force to drop them)`);
      continue;
    }
    if (!path) {
      const slug = slugOf(a.name, a.id);
      path = join(dir, `${slug}${ASSISTANT_FILE_SUFFIX}`);
      for (let n = 2; taken.has(path); n++) path = join(dir, `${slug}-${n}${ASSISTANT_FILE_SUFFIX}`);
    }
    taken.add(path);
    writeBase(dir, a.id, value, { path, text: renderAssistantYaml(value) });
    pulled++;
    out.write(`${escapeLine(path)}\t${label(a)}\n`);
  }
  writeErr(
    `pulled ${pulled} assistant${pulled === 1 ? '' : 's'} into ${dir}${kept ? `; ${kept} file${kept === 1 ? '' : 's'} with local changes left alone` : ''}`,
  );
  return kept ? EXIT.failed : EXIT.ok;
}

// ---- reading the directory, checked before anything is sent ----

interface Checked extends LocalAssistant {
  /** The file's fields with knowledge-base file names resolved to ids. */
  value: FileValue;
}

/** Every file parsed, checked and resolved; any problem is a UsageError (exit 2) before a request that writes. */
async function readChecked(api: VoiceAgentApi, dir: string): Promise<Checked[]> {
  let locals: LocalAssistant[];
  try {
    locals = readAssistantFiles(dir);
  } catch (err) {
    if (err instanceof DuplicateIdError) throw new UsageError(err.message);
    throw err;
  }
  const kbFiles = locals.some((l) => namesKnowledgeBaseFiles(l.parsed.value)) ? await allFiles(api) : [];
  return locals.map((l) => {
    try {
      return { ...l, value: resolveKnowledgeBase(l.parsed.value, kbFiles) };
    } catch (err) {
      if (err instanceof KnowledgeBaseNameError) throw new UsageError(`${l.path}: ${err.message}`);
      throw err;
    }
  });
}

// ---- diff ----

/** One line of `assistants diff`; `-o json` prints the list as it is. */
export type DiffEntry =
  | { kind: 'changed'; file: string; id: string; name?: string | null; changes: FieldChange[]; drift?: Drift }
  | { kind: 'new'; file: string }
  | { kind: 'not-on-service'; file: string; id: string }
  | { kind: 'no-file'; id: string; name?: string | null };

export async function assistantDiffs(api: VoiceAgentApi, dir: string): Promise<DiffEntry[]> {
  const locals = await readChecked(api, dir);
  const service = await api.listAssistants();
  const byId = new Map(service.map((a) => [a.id, a]));
  const entries: DiffEntry[] = [];
  const inFiles = new Set<string>();
  for (const l of locals) {
    const id = l.parsed.id;
    if (!id) {
      entries.push({ kind: 'new', file: l.path });
      continue;
    }
    inFiles.add(id);
    const remote = byId.get(id);
    if (!remote) {
      entries.push({ kind: 'not-on-service', file: l.path, id });
      continue;
    }
    const serviceValue = toFileValue(remote);
    const changes = fieldChanges(serviceValue, l.value);
    const base = readBase(dir, id);
    const drift = base && driftSince(base, serviceValue, l.value);
    if (changes.length || drift) entries.push({ kind: 'changed', file: l.path, id, name: remote.name, changes, ...(drift ? { drift } : {}) });
  }
  for (const a of service) if (!inFiles.has(a.id)) entries.push({ kind: 'no-file', id: a.id, name: a.name });
  return entries;
}

/** Prints what differs; resolves true when anything does (a drift alone, with no change in the file, is not a difference). */
export async function diffAssistants(api: VoiceAgentApi, out: OutputTarget, dir: string): Promise<boolean> {
  const entries = await assistantDiffs(api, dir);
  const differs = entries.some((e) => e.kind !== 'changed' || e.changes.length > 0);
  if (out.format === 'json') {
    out.write(jsonText(entries, 2) + '\n');
    return differs;
  }
  const p = painter(out);
  for (const e of entries) {
    if (e.kind === 'new') out.write(`${p('bold', escapeLine(e.file))}: new (no id; push creates it)\n`);
    else if (e.kind === 'not-on-service')
      out.write(`${p('bold', escapeLine(e.file))}: assistant ${escapeLine(e.id)} is not on the service (deleted there? remove the id to create it again)\n`);
    else if (e.kind === 'no-file')
      out.write(`${label(e)}: on the service, no file in ${escapeLine(dir)} (switchboard assistants pull ${escapeLine(e.id)} writes one)\n`);
    else {
      out.write(`${p('bold', escapeLine(e.file))}: ${label(e)}\n`);
      if (e.drift) out.write(`  ${p('red', `drift: ${describeDrift(e.drift)}`)}\n`);
      for (const c of e.changes) for (const line of changeLines(c, p)) out.write(`  ${line}\n`);
    }
  }
  if (!differs) writeErr(`no differences between ${dir} and the service`);
  return differs;
}

// ---- push ----

export interface PushFlags {
  dryRun?: boolean;
  yes?: boolean;
  force?: boolean;
}

type Step =
  | {
      kind: 'create';
      local: Checked;
      body: Record<string, unknown>;
    }
  | { kind: 'update'; local: Checked; id: string; remote: Assistant; patch: Record<string, unknown> };

interface Plan {
  steps: Step[];
  failed: boolean;
}

/** What a push would write, read from the files and the service now; printed when `out` is given. */
async function planPush(api: VoiceAgentApi, out: OutputTarget | undefined, dir: string, flags: PushFlags): Promise<Plan> {
  const locals = await readChecked(api, dir);
  const service = await api.listAssistants();
  const byId = new Map(service.map((a) => [a.id, a]));
  const say = out ? (text: string) => out.write(text) : () => {};
  const warn = out ? writeErr : () => {};
  const p: Paint = out ? painter(out) : (_tone, text) => text;
  let failed = false;
  const steps: Step[] = [];

  for (const local of locals) {
    const id = local.parsed.id;
    const where = p('bold', escapeLine(local.path));
    if (!id) {
      const body = createBody(local.value) as Record<string, unknown>;
      steps.push({ kind: 'create', local, body });
      say(`${where}: create\n  POST /assistants ${escapeLine(jsonText(body))}\n`);
      continue;
    }
    const remote = byId.get(id);
    if (!remote) {
      failed = true;
      warn(`${local.path}: assistant ${id} is not on the service; not pushed (remove its id to create it again)`);
      continue;
    }
    const serviceValue = toFileValue(remote);
    const patch = patchFor(serviceValue, local.value) as Record<string, unknown>;
    if (Object.keys(patch).length === 0) continue;
    const base = readBase(dir, id);
    const drift = base && driftSince(base, serviceValue, local.value);
    if (drift && !flags.force) {
      failed = true;
      warn(
        `${local.path}: refused: ${label(remote)} ${describeDrift(drift)}. ` +
          'Pull it again and redo the edit, or push --force to make the service match the file.',
      );
      continue;
    }
    if (!base) warn(`${local.path}: no base copy in ${join(dir, '.switchboard')} (never pulled here): cannot check for changes made on the service`);
    steps.push({ kind: 'update', local, id, remote, patch });
    say(`${where}: update ${label(remote)}${drift ? ' (--force: overwriting changes made on the service)' : ''}\n`);
    for (const c of fieldChanges(serviceValue, local.value)) for (const line of changeLines(c, p)) say(`  ${line}\n`);
    say(`  PATCH /assistants/${escapeLine(id)} (${Object.keys(patch).join(', ')})\n`);
  }
  return { steps, failed };
}

/** A push holding the directory waits this long for another to finish (each write is a request to the service). */
const PUSH_LOCK_WAIT_MS = 5 * 60_000;

/** Pushes the directory; returns the exit code (1 when an assistant was refused or failed). */
export async function pushAssistants(api: VoiceAgentApi, out: OutputTarget, dir: string, flags: PushFlags): Promise<number> {
  const shown = await planPush(api, out, dir, flags);
  const failedBefore = shown.failed;
  const steps = shown.steps;

  if (flags.dryRun) {
    writeErr(`dry run: ${steps.length} assistant${steps.length === 1 ? '' : 's'} would be written; nothing was sent`);
    return failedBefore ? EXIT.failed : EXIT.ok;
  }
  if (steps.length === 0) {
    writeErr(failedBefore ? 'nothing pushed' : `nothing to push: ${dir} and the service agree`);
    return failedBefore ? EXIT.failed : EXIT.ok;
  }
  if (!flags.yes) {
    const what = `${steps.length} assistant${steps.length === 1 ? '' : 's'}`;
    if (!io().stdin.isTTY)
      throw new UsageError(`refusing to push ${what} without a terminal to confirm on; add --yes to push, or --dry-run to see what would be sent.`);
    if (!(await confirm(`Write ${what} to ${api.baseUrl}?`))) {
      writeErr('nothing pushed');
      return failedBefore ? EXIT.failed : EXIT.ok;
    }
  }

  // One push at a time writes a directory: a second one (another terminal, a CI job run twice)
  // waits, then reads the files again and finds the ids the first wrote back, creating nothing twice.
  const { withLock } = await import('../config/lock.js');
  return withLock(
    pushLockPath(dir),
    async () => {
      const now = await planPush(api, undefined, dir, flags);
      const kinds = new Map(now.steps.map((st) => [st.local.path, st.kind]));
      for (const st of steps)
        if (st.kind === 'create' && kinds.get(st.local.path) !== 'create')
          writeErr(`${st.local.path}: holds an id now (another push wrote it meanwhile); not created again`);
      let failed = now.failed;
      if (now.steps.length === 0) {
        writeErr(failed ? 'nothing pushed' : `nothing to push: ${dir} and the service agree`);
        return failed ? EXIT.failed : EXIT.ok;
      }
      for (const step of now.steps) {
        try {
          const notApplied = step.kind === 'create' ? await create(api, dir, step) : await update(api, dir, step);
          if (notApplied.length)
            writeErr(
              `warning: ${step.local.path}: the service did not apply: ${notApplied.join(', ')} (a re-read shows ${notApplied.length === 1 ? 'it' : 'them'} ` +
                `unchanged)`,
            );
        } catch (err) {
          failed = true;
          const { failure } = await import('../api/errors.js');
          writeErr(`${step.local.path}: could not ${step.kind} the assistant: ${failure(err).message}`);
        }
      }
      return failed ? EXIT.failed : EXIT.ok;
    },
    // Its holder is alive as long as its pid is: a push of many assistants takes many requests.
    { staleMs: Number.POSITIVE_INFINITY, waitMs: PUSH_LOCK_WAIT_MS },
  );
}

async function create(api: VoiceAgentApi, dir: string, step: Extract<Step, { kind: 'create' }>): Promise<readonly string[]> {
  const written = await api.createAssistant(step.body);
  const created = written.record;
  if (!created) {
    // Created all the same: a success, but the next push would create it again without its id.
    if (written.unread) writeErr(unreadNote(`created ${step.local.path}`, written.unread));
    writeErr(
      `warning: ${step.local.path}: the new assistant's id is unknown, so it is not written into the file; find it in \`switchboard assistants list\` and ` +
        `add its id before pushing again, or the next push creates it again`,
    );
    return [];
  }
  if (written.unread) writeErr(unreadNote(`created ${step.local.path}`, written.unread));
  // The id first, so a failure later (the re-read) cannot make the next push create it twice.
  writeFileAtomic(step.local.path, withIdWritten(step.local.text, created.id));
  const stored = await api.getAssistant(created.id).catch(() => created);
  writeBase(dir, created.id, toFileValue(stored));
  writeErr(`created ${step.local.path}: ${created.name ?? ''} (${created.id}); its id is written into the file`);
  return reportNotApplied(stored, step.body).notApplied;
}

async function update(api: VoiceAgentApi, dir: string, step: Extract<Step, { kind: 'update' }>): Promise<readonly string[]> {
  const written = await api.updateAssistant(step.id, step.patch);
  const updated = written.record;
  if (written.unread) writeErr(unreadNote(`updated ${step.local.path}`, written.unread));
  if (updated) writeBase(dir, step.id, toFileValue(updated));
  writeErr(`updated ${step.local.path}: ${Object.keys(step.patch).join(', ')}`);
  return updated?.notApplied ?? [];
}

// ---- clone ----

export async function cloneAssistant(api: VoiceAgentApi, out: OutputTarget, id: string, name: string | undefined): Promise<void> {
  const source = await api.getAssistant(id);
  // Only the spec's fields: what else the service returned (its own bookkeeping) is not for a create.
  const fields = Object.entries(createBody(toFileValue(source))).filter(([k]) => k in AssistantInputSchema.shape);
  const body = { ...Object.fromEntries(fields), name: name ?? `${source.name ?? 'assistant'} (copy)` };
  const created = await api.createAssistant(body);
  if (created.record) printRecord(out, created.record, ASSISTANT_COLUMNS);
  noteUnread('the copy was created', created, 'its id is unknown; look for it in: switchboard assistants list');
}
