// Finding scenario files, and the snapshot file beside each (`<name>.snap.yaml`).
import { closeSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Document, parse } from 'yaml';
import { inertYaml } from '../yaml.js';
import { InputError } from '../api/errors.js';
import { readHandedFile, readHandedFileIfAny } from '../config/files.js';
import { baseName, SCENARIO_FILE } from './scenario.js';

/** The default place for scenario files, relative to the working directory. */
export const DEFAULT_TEST_DIR = 'tests';

/** A scenario file found, and the directory walked to find it (a symlink there must stay inside it). */
export interface FoundFile {
  path: string;
  within?: string;
}

/** How deep a walk goes: far below any real test tree, and an end for a tree that has none (a bind mount of itself). */
const MAX_WALK_DEPTH = 32;

/**
 * Scenario files under the given paths, sorted: a directory is searched for `*.test.yaml` /
 * `*.test.yml` (dot-directories and node_modules skipped, symlinked directories not followed);
 * a file named directly is taken as is.
 */
export function findScenarioFiles(paths: readonly string[]): FoundFile[] {
  const found = new Map<string, FoundFile>();
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new InputError(
        p === DEFAULT_TEST_DIR ? `no ./${DEFAULT_TEST_DIR} directory here; name the scenario files or directories to run` : `${p}: no such file or directory`,
      );
    }
    if (st.isDirectory()) walk(p, p, found, 0);
    else if (!found.has(p)) found.set(p, { path: p });
  }
  return [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function walk(root: string, dir: string, into: Map<string, FoundFile>, depth: number): void {
  if (depth > MAX_WALK_DEPTH) throw new InputError(`${dir}: more than ${MAX_WALK_DEPTH} directories deep; name a directory nearer the scenario files`);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(root, p, into, depth + 1);
    else if (SCENARIO_FILE.test(e.name) && !into.has(p)) into.set(p, { path: p, within: root });
  }
}

/** A scenario file's text, read through the one reader for files people hand over. */
export function readScenarioFile(f: FoundFile): string {
  return readHandedFile(f.path, 'a scenario file', { within: f.within });
}

/** `returns.test.yaml` → `returns.snap.yaml`, in the same directory. */
function snapshotPath(file: string): string {
  return join(dirname(file), `${baseName(file)}.snap.yaml`);
}

interface SnapshotTurn {
  user: string;
  reply: string;
}

/** Stored replies by scenario name; an absent file is no snapshots. */
export type Snapshots = Record<string, SnapshotTurn[]>;

export function readSnapshots(file: string): Snapshots {
  const path = snapshotPath(file);
  const text = readHandedFileIfAny(path, 'a snapshot file');
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    throw new InputError(`${path}: not a snapshot file (${(err as Error).message.split('\n')[0]}); delete it or run with --update-snapshots`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${path}: not a snapshot file; delete it or run with --update-snapshots`);
  const out: Snapshots = {};
  for (const [name, turns] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(turns)) continue;
    out[name] = turns.map((t) => {
      const r = (t ?? {}) as Record<string, unknown>;
      return { user: String(r.user ?? ''), reply: String(r.reply ?? '') };
    });
  }
  return out;
}

const SNAPSHOT_HEADER = '# Replies stored by `switchboard test --update-snapshots`; a turn with `expect: { snapshot: true }` must reply the same.\n';

/**
 * Replaces the given scenarios' snapshots, keeping the others; written whole and renamed into
 * place, under a lock file so two runs updating the same file (two terminals, a watcher) each
 * keep the other's scenarios.
 */
export function writeSnapshots(file: string, update: Snapshots): string {
  const path = snapshotPath(file);
  return withLock(`${path}.lock`, () => {
    const merged = { ...readSnapshots(file), ...update };
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, SNAPSHOT_HEADER + inertYaml(new Document(merged), { lineWidth: 0 }));
    renameSync(tmp, path);
    return path;
  });
}

const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a process that died while holding it. */
const LOCK_STALE_MS = 30_000;

function withLock<T>(lock: string, fn: () => T): T {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) unlinkSync(lock);
      } catch {
        // gone meanwhile: try again
      }
      if (Date.now() > until) throw new InputError(`${lock} is held by another run; delete it if no other switchboard test is updating snapshots`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // removed as stale by another run: nothing to release
    }
  }
}
