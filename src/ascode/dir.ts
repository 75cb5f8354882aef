// A directory of assistant files (`./assistants` by default): `<slug>.assistant.yaml` per
// assistant, and in its hidden `.switchboard/` folder a base copy per assistant, the service's
// record as it was at the last pull or push, which tells a local edit from a change made on
// the service. Commit both to git: the base copies make the drift check work on any checkout.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { readHandedFile, readHandedFileIfAny, tempName, UnreadableFileError } from '../config/files.js';
import { makeDirs } from '../config/private-dir.js';
import { parseAssistantYaml, renderAssistantYaml, type FileValue, type ParsedAssistantFile } from './document.js';

export const ASSISTANT_FILE_SUFFIX = '.assistant.yaml';
const BASE_FOLDER = '.switchboard';

export interface LocalAssistant {
  path: string;
  text: string;
  parsed: ParsedAssistantFile;
}

/** The assistant files of `dir`, sorted; none when the directory does not exist. */
export function assistantFilePaths(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .filter((n) => n.endsWith(ASSISTANT_FILE_SUFFIX))
    .sort()
    .map((n) => join(dir, n));
}

/** An assistant file of `dir`, through the one reader for files people hand over (a symlink must stay inside `dir`). */
export function readAssistantFile(dir: string, path: string): string {
  return readHandedFile(path, 'an assistant file', { within: dir });
}

/** Reads and checks every file first: one bad file throws (AssistantFileError) before anything is sent. */
export function readAssistantFiles(dir: string): LocalAssistant[] {
  const files = assistantFilePaths(dir).map((path) => {
    const text = readAssistantFile(dir, path);
    return { path, text, parsed: parseAssistantYaml(text, path) };
  });
  const seen = new Map<string, string>();
  for (const f of files) {
    const id = f.parsed.id;
    if (!id) continue;
    const other = seen.get(id);
    if (other) throw new DuplicateIdError(`${other} and ${f.path} both hold assistant ${id}; keep one of them`);
    seen.set(id, f.path);
  }
  return files;
}

export class DuplicateIdError extends Error {
  override name = 'DuplicateIdError';
}

/** The longest stem a file name gets here: well under every file system's 255-byte name limit. */
const MAX_STEM = 80;

/**
 * `text` as a file name's stem, at most MAX_STEM characters: a longer one (a service's id can be
 * hundreds of characters) is cut and given a hash of the whole, so two long ids never share a name.
 */
function fileStem(text: string): string {
  if (text.length <= MAX_STEM) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return `${text.slice(0, MAX_STEM - hash.length - 1)}-${hash}`;
}

const basePath = (dir: string, id: string) => join(dir, BASE_FOLDER, `${fileStem(encodeURIComponent(id))}${ASSISTANT_FILE_SUFFIX}`);

/** The base copy of assistant `id`, or undefined when it was never pulled into this directory. */
export function readBase(dir: string, id: string): FileValue | undefined {
  baseFolder(dir);
  const text = readHandedFileIfAny(basePath(dir, id), 'a base copy', { within: dir });
  if (text === undefined) return undefined;
  const value: unknown = parseDocument(text).toJS();
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as FileValue) : undefined;
}

/**
 * Whether `dir`'s base folder exists; refused when it is anything but a real directory: a
 * symlinked `.switchboard/` (committed to a repository) would have base copies read from, and
 * written to, wherever it points.
 */
function baseFolder(dir: string): boolean {
  const path = join(dir, BASE_FOLDER);
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new UnreadableFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (st.isSymbolicLink())
    throw new UnreadableFileError(
      `${path} is a symlink; base copies are kept only in a real directory inside ${dir} (remove the link; a pull writes them again)`,
    );
  if (!st.isDirectory()) throw new UnreadableFileError(`${path} is not a directory; base copies are kept in it (remove it; a pull writes them again)`);
  return true;
}

/** What a push locks while it writes `dir` (its lock file goes in the base folder, made here if need be). */
export function pushLockPath(dir: string): string {
  if (!baseFolder(dir)) makeDirs(join(dir, BASE_FOLDER));
  return join(dir, BASE_FOLDER, 'push');
}

const BASE_NOTE = ['What the service held at the last pull or push (switchboard assistants diff/push compare against it). Do not edit.'];

/** Writes the base copy of assistant `id`, and with it `file` when given: both or neither (see writeFilesAtomic). */
export function writeBase(dir: string, id: string, value: FileValue, file?: { path: string; text: string }): void {
  if (!baseFolder(dir)) makeDirs(join(dir, BASE_FOLDER));
  writeFilesAtomic([...(file ? [file] : []), { path: basePath(dir, id), text: renderAssistantYaml(value, BASE_NOTE) }]);
}

/** Written whole or not at all: a reader (git, an editor, another push) never sees half a file. */
export function writeFileAtomic(path: string, text: string): void {
  writeFilesAtomic([{ path, text }]);
}

/**
 * Several files written together: each goes to a temp file beside its name first, and only when
 * every one is written (the step that fails on a full disk or a bad name) are they renamed into
 * place. A file without its base copy would look like a local edit at the next pull.
 */
function writeFilesAtomic(files: readonly { path: string; text: string }[]): void {
  const temps: string[] = [];
  try {
    for (const f of files) {
      // A new name, created exclusively: a file or symlink already there is never written through.
      const tmp = tempName(f.path);
      temps.push(tmp);
      writeFileSync(tmp, f.text, { flag: 'wx' });
    }
  } catch (err) {
    for (const tmp of temps) rmSync(tmp, { force: true });
    throw err;
  }
  files.forEach((f, i) => renameSync(temps[i], f.path));
}

/** `Front desk (EU)` → `front-desk-eu`; the id when the name has no letters or digits. */
export function slugOf(name: string | null | undefined, id: string): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || fileStem(id.replace(/[^A-Za-z0-9_-]+/g, '-'));
}
