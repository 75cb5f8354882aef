// Private files: written whole (temp file + rename, so a crash never leaves half a file),
// mode 0600 in a 0700 directory, because they hold API keys or people's conversations.
import { closeSync, fsyncSync, fstatSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { brandError, InputError } from '../api/errors.js';
import { privateDir } from './private-dir.js';

/** A problem with Switchboard's own files or settings; the message says how to fix it. */
export class ConfigError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

// node:crypto and node:fs/promises are loaded when first used: most commands write no file.
/** A name beside `path` that no other process or write uses (this pid, random bytes), ending in `suffix`. */
export const tempName = (path: string, suffix = '.tmp') =>
  `${path}.${process.pid}.${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}${suffix}`;

export function writePrivateFile(path: string, text: string): void {
  privateDir(dirname(path));
  const tmp = tempName(path);
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** writePrivateFile with async I/O (temp file, fsync, rename), for writers on the console's event loop. */
export async function writePrivateFileAsync(path: string, text: string): Promise<void> {
  const { mkdir, open, rename, rm } = process.getBuiltinModule('node:fs/promises');
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = tempName(path);
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** The parsed JSON of a file, or undefined when it does not exist. */
export function readJsonFile(path: string, whatToDo: string): unknown {
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    text = unreadJson(path, err);
  }
  return parsedJson(path, text, whatToDo);
}

/** readJsonFile, reading the file without blocking. */
export async function readJsonFileAsync(path: string, whatToDo: string): Promise<unknown> {
  const { readFile } = process.getBuiltinModule('node:fs/promises');
  return parsedJson(path, await readFile(path, 'utf8').catch((err: unknown) => unreadJson(path, err)), whatToDo);
}

/** A read that failed: no file is undefined; anything else is an error naming the file. */
function unreadJson(path: string, err: unknown): undefined {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
}

function parsedJson(path: string, text: string | undefined, whatToDo: string): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path} is not valid JSON (${(err as Error).message}); ${whatToDo}`);
  }
}

/** The largest hand-written file Switchboard reads (a scenario, an assistant): far above any real one. */
const MAX_TEXT_FILE_BYTES = 2 * 1024 * 1024;

/**
 * A file people write by hand, as text; refused before it is read when larger than `maxBytes`
 * (a huge YAML file would take seconds and gigabytes of memory to parse).
 */
export function readSmallTextFile(path: string, what: string, maxBytes = MAX_TEXT_FILE_BYTES): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) {
      const mb = (n: number) => `${+(n / 1024 / 1024).toFixed(1)} MB`;
      throw new InputError(`${path}: ${mb(size)} is too large for ${what} (at most ${mb(maxBytes)}); split it into several files`);
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

brandError(ConfigError, 'ConfigError');
