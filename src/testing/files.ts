// Finding scenario files, and the snapshot file beside each (`<name>.snap.yaml`).
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { InputError } from '../api/errors.js';
import { baseName, SCENARIO_FILE } from './scenario.js';

/** The default place for scenario files, relative to the working directory. */
export const DEFAULT_TEST_DIR = 'tests';

/**
 * Scenario files under the given paths, sorted: a directory is searched for `*.test.yaml` /
 * `*.test.yml` (dot-directories and node_modules skipped); a file named directly is taken as is.
 */
export function findScenarioFiles(paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new InputError(p === DEFAULT_TEST_DIR ? `no ./${DEFAULT_TEST_DIR} directory here; name the scenario files or directories to run` : `${p}: no such file or directory`);
    }
    if (st.isDirectory()) walk(p, found);
    else found.add(p);
  }
  return [...found].sort();
}

function walk(dir: string, into: Set<string>): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, into);
    else if (SCENARIO_FILE.test(e.name)) into.add(p);
  }
}

/** `returns.test.yaml` → `returns.snap.yaml`, in the same directory. */
export function snapshotPath(file: string): string {
  return join(dirname(file), `${baseName(file)}.snap.yaml`);
}

export interface SnapshotTurn {
  user: string;
  reply: string;
}

/** Stored replies by scenario name; an absent file is no snapshots. */
export type Snapshots = Record<string, SnapshotTurn[]>;

export function readSnapshots(file: string): Snapshots {
  const path = snapshotPath(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
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

/** Replaces the given scenarios' snapshots, keeping the others; written whole and renamed into place. */
export function writeSnapshots(file: string, update: Snapshots): string {
  const path = snapshotPath(file);
  const merged = { ...readSnapshots(file), ...update };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, SNAPSHOT_HEADER + stringify(merged, { lineWidth: 0 }));
  renameSync(tmp, path);
  return path;
}
