// Runs dist/commands.cjs with a V8 code cache made at the end of a run, so it holds every function
// that run compiled: Node's own compile cache (enableCompileCache) keeps only the code compiled before
// the file runs, and a bundle's modules are functions V8 compiles lazily, at every start.
// One cache per command and subcommand (what `calls search` runs is not what `assistants list` runs), in a directory of
// this user's under the OS temp dir, as Node keeps its compile cache; made again whenever V8 rejects it.
import { isAscii } from 'node:buffer';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vm from 'node:vm';

type ModuleClass = typeof nodeModule.Module & {
  new (id: string, parent?: unknown): NodeJS.Module;
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
};

const STALE_MS = 24 * 3600 * 1000;
/**
 * A build keeps at most this many caches (each most of a megabyte): past them, writing a new one
 * removes the least recently used (each use renews a file's time), so a new command or subcommand
 * never goes without one, whatever their number.
 */
export const MAX_CACHES = 96;
/** The root's options that take a value (as in src/commands/index.ts): `--profile prod calls list` is cached as calls-list. */
const VALUE_OPTIONS = new Set(['--profile', '-o', '--output']);

/** A directory only this user can write, or undefined (a stranger's, a link, no uid on this OS). */
function ownDir(dir: string): string | undefined {
  if (typeof process.getuid !== 'function') return undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid() && (st.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the least recently used caches in `dir` (by their time) until at most `keep` are left. */
function evictOldest(dir: string, keep: number): void {
  const caches = readdirSync(dir).filter((f) => f.endsWith('.bin'));
  if (caches.length <= keep) return;
  const byTime = caches.map((f) => ({ f, t: statSync(join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => a.t - b.t);
  for (const { f } of byTime.slice(0, caches.length - keep)) rmSync(join(dir, f), { force: true });
}

/** Runs `file` (CommonJS) as require would, its code from the cache when V8 accepts it (required plainly when there can be none). */
export function runWithCodeCache(file: string, args: string[]): void {
  const fallback = () => nodeModule.createRequire(file)(file) as unknown;
  const Module = nodeModule.Module as ModuleClass;
  const root = ownDir(join(tmpdir(), `switchboard-code-cache-${process.getuid?.() ?? 0}`));
  if (!root) return void fallback();
  let source: string;
  let key: string;
  try {
    // The build keeps the file ASCII (build.mjs), so it is read as latin1, the cheapest decoding.
    const bytes = readFileSync(file);
    source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    const st = statSync(file);
    key = `${process.version}-${st.size}-${Math.floor(st.mtimeMs)}`;
  } catch {
    return void fallback();
  }
  const dir = join(root, key);
  // The first two words (options left out): others (ids, paths) share that file; a failed run writes none.
  const words = args.filter((a, i) => !a.startsWith('-') && !VALUE_OPTIONS.has(args[i - 1])).slice(0, 2);
  const cacheFile = join(dir, `${words.every((w) => /^[a-z][a-z0-9-]{0,23}$/.test(w)) ? words.join('-') || '_' : '_'}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (cachedData && !script.cachedDataRejected) {
    try {
      // Its time says when it was last used: the least recently used goes first (evictOldest).
      const now = new Date();
      utimesSync(cacheFile, now, now);
    } catch {
      // Not renewed: it may go before others when the build's caches are full.
    }
  } else {
    process.once('exit', (code) => {
      if (code !== 0) return;
      try {
        // Other builds' caches go once a day has passed without a write (two builds in use keep theirs).
        for (const other of readdirSync(root)) {
          if (other !== key && statSync(join(root, other)).mtimeMs < Date.now() - STALE_MS) rmSync(join(root, other), { recursive: true, force: true });
        }
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (!cachedData) evictOldest(dir, MAX_CACHES - 1);
        const tmp = `${cacheFile}.${process.pid}`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
      } catch {
        // A cache not written is made by a later run.
      }
    });
  }
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(join(file, '..'));
  const wrapper = script.runInThisContext() as (...a: unknown[]) => void;
  wrapper.call(m.exports, m.exports, nodeModule.createRequire(file), m, file, join(file, '..'));
}
