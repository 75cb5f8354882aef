// A directory of assistant files (`./assistants` by default): `<slug>.assistant.yaml` per
// assistant, and in its hidden `.switchboard/` folder a base copy per assistant, the service's
// record as it was at the last pull or push, which tells a local edit from a change made on
// the service. Commit both to git: the base copies make the drift check work on any checkout.
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { parseAssistantYaml, renderAssistantYaml, type FileValue, type ParsedAssistantFile } from './document.js';

export const ASSISTANT_FILE_SUFFIX = '.assistant.yaml';
export const BASE_FOLDER = '.switchboard';

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

/** Reads and checks every file first: one bad file throws (AssistantFileError) before anything is sent. */
export function readAssistantFiles(dir: string): LocalAssistant[] {
  const files = assistantFilePaths(dir).map((path) => {
    const text = readFileSync(path, 'utf8');
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

const basePath = (dir: string, id: string) => join(dir, BASE_FOLDER, `${encodeURIComponent(id)}${ASSISTANT_FILE_SUFFIX}`);

/** The base copy of assistant `id`, or undefined when it was never pulled into this directory. */
export function readBase(dir: string, id: string): FileValue | undefined {
  let text: string;
  try {
    text = readFileSync(basePath(dir, id), 'utf8');
  } catch {
    return undefined;
  }
  const value: unknown = parseDocument(text).toJS();
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as FileValue) : undefined;
}

export function writeBase(dir: string, id: string, value: FileValue): void {
  mkdirSync(join(dir, BASE_FOLDER), { recursive: true });
  writeFileAtomic(basePath(dir, id), renderAssistantYaml(value, ['What the service held at the last pull or push (switchboard assistants diff/push compare against it). Do not edit.']));
}

/** Written whole or not at all: a reader (git, an editor, another push) never sees half a file. */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
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
  return slug || id.replace(/[^A-Za-z0-9_-]+/g, '-');
}
