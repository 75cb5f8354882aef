// Loaded with --import (NODE_OPTIONS): appends each file: URL a process loads to $SWITCHBOARD_LOAD_LOG,
// so a test can tell which of the bundle's chunks a start-up path reads. With SWITCHBOARD_LOAD_LOG_FRAME=1
// it also appends `<pid> #first-frame` when the process first clears the screen (the frame drawn before Ink,
// src/ui/start.ts) and `<pid> #ink-frame` when it first writes a synchronized update (Ink's first frame),
// and `<pid> #sandbox-fork` each time it forks a child (the embedded sandbox, src/sandbox/child.ts).
import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
import process from 'node:process';

const log = process.env.SWITCHBOARD_LOAD_LOG;
if (log) {
  registerHooks({
    load(url, context, next) {
      if (url.startsWith('file:')) appendFileSync(log, `${process.pid} ${url}\n`);
      return next(url, context);
    },
  });
}
if (log && process.env.SWITCHBOARD_LOAD_LOG_FRAME === '1') {
  const write = process.stdout.write;
  const marked = new Set();
  const mark = (chunk, sequence, name) => {
    if (marked.has(name) || !String(chunk).includes(sequence)) return;
    marked.add(name);
    appendFileSync(log, `${process.pid} #${name}\n`);
  };
  // child.ts reaches fork through the builtin module's object at the call, so the wrapper sees it.
  const childProcess = process.getBuiltinModule('node:child_process');
  const fork = childProcess.fork;
  childProcess.fork = function (...args) {
    appendFileSync(log, `${process.pid} #sandbox-fork\n`);
    return fork.apply(this, args);
  };
  process.stdout.write = function (chunk, ...rest) {
    mark(chunk, '\x1b[2J', 'first-frame');
    mark(chunk, '\x1b[?2026h', 'ink-frame');
    return write.call(this, chunk, ...rest);
  };
}
