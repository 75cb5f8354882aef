// The standard streams one run of the commands reads and writes: the process's own, or those a
// caller hands runCommands (the tests run the program in their process and capture what it
// prints). An AsyncLocalStorage carries them, so code deep in a command (a progress line, a
// prompt, an export) writes to its run's streams without each function being handed them.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Io {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** The process's streams, read when used: touching process.stdin opens it, which a command that never reads must not do. */
const PROCESS_IO: Io = {
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
};

const runs = new AsyncLocalStorage<Io>();

/** This run's streams. */
export function io(): Io {
  return runs.getStore() ?? PROCESS_IO;
}

/** Runs `fn` with `streams` as its standard streams (and those of everything it starts). */
export function withIo<T>(streams: Io | undefined, fn: () => Promise<T>): Promise<T> {
  return streams ? runs.run(streams, fn) : fn();
}
