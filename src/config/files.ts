// Private files: written whole (temp file + rename, so a crash never leaves half a file),
// mode 0600 in a 0700 directory, because they hold API keys or people's conversations.
import {
  closeSync,
  constants as fsConstants,
  fsyncSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { brandError, InputError } from '../api/errors.js';
import { makeDirs, privateDir } from './private-dir.js';

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
  const { open, rename, rm } = process.getBuiltinModule('node:fs/promises');
  makeDirs(dirname(path), 0o700);
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

const mb = (n: number) => (n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${+(n / 1024).toFixed(1)} KB` : `${+(n / 1024 / 1024).toFixed(1)} MB`);

/** A file handed to Switchboard that it will not read: the message names the file and why (exit 2). */
export class UnreadableFileError extends InputError {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

/** What a path that is not a regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (fifo)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function unreadable(path: string, err: unknown): UnreadableFileError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ELOOP'
          ? 'a loop of symlinks'
          : code === 'EISDIR'
            ? 'a directory'
            : (err as Error).message;
  return new UnreadableFileError(`cannot read ${path}: ${why}`, code);
}

export interface HandedFileOptions {
  /** The most bytes read; a longer file is refused. */
  maxBytes?: number;
  /** The directory being walked where the path was found: a symlink must resolve inside it. */
  within?: string;
  /** What to do with a file too large (default: split it). */
  tooLargeHint?: string;
}

/** Refuses a path that resolves (through symlinks) outside `within`. */
function checkInside(path: string, within: string): void {
  let real: string;
  let root: string;
  try {
    real = realpathSync(path);
    root = realpathSync(within);
  } catch (err) {
    throw unreadable(path, err);
  }
  const rel = relative(root, real);
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new UnreadableFileError(`${path} is a symlink to ${real}, outside ${within}; copy the file into ${within} instead`);
}

// O_NONBLOCK: opening a fifo for reading otherwise waits for a writer, forever. It changes nothing
// for a regular file, the only kind read past the fstat.
const READ_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 64 * 1024;

/**
 * A file people hand to Switchboard (a scenario, an assistant file, a base copy, a key file), as
 * text. Refused with one line naming it when it is not a regular file once symlinks are followed
 * (a fifo would block the read forever, /dev/zero never ends), when a symlink found in a walked
 * directory leads outside it, and when it holds more than `maxBytes`: the read stops there
 * whatever the file's size says (a kernel file reports 0 bytes; a file can grow while read).
 */
export function readHandedFile(path: string, what: string, opts: HandedFileOptions = {}): string {
  const maxBytes = opts.maxBytes ?? MAX_TEXT_FILE_BYTES;
  const notRegular = (st: Stats) => new UnreadableFileError(`${path} is ${kindOf(st)}, not a regular file; ${what} must be one`);
  const tooLarge = (n: string) =>
    new UnreadableFileError(`${path}: ${n} is too large for ${what} (at most ${mb(maxBytes)}); ${opts.tooLargeHint ?? 'split it into several files'}`);
  if (opts.within !== undefined) checkInside(path, opts.within);
  // Looked at before it is opened, so a device is never opened; and again once open (the path may change between).
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw unreadable(path, err);
  }
  if (!st.isFile()) throw notRegular(st);
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (err) {
    throw unreadable(path, err);
  }
  try {
    st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(st);
    if (st.size > maxBytes) throw tooLarge(mb(st.size));
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK_BYTES, maxBytes + 1 - total), null);
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
      total += n;
      if (total > maxBytes) throw tooLarge(`more than ${mb(maxBytes)}`);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof UnreadableFileError) throw err;
    throw unreadable(path, err);
  } finally {
    closeSync(fd);
  }
}

/** readHandedFile, or undefined when there is no such file. */
export function readHandedFileIfAny(path: string, what: string, opts: HandedFileOptions = {}): string | undefined {
  try {
    return readHandedFile(path, what, opts);
  } catch (err) {
    if (err instanceof UnreadableFileError && err.code === 'ENOENT') return undefined;
    throw err;
  }
}

brandError(ConfigError, 'ConfigError');
brandError(UnreadableFileError, 'UnreadableFileError');
