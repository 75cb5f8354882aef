// Loaded with --import (NODE_OPTIONS): appends each file: URL a process loads to $SWITCHBOARD_LOAD_LOG,
// so a test can tell which of the bundle's chunks a start-up path reads. With SWITCHBOARD_LOAD_LOG_FRAME=1
// it also appends `<pid> #ink-frame` when the process first writes a synchronized update (Ink's first frame).
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
  let marked = false;
  process.stdout.write = function (chunk, ...rest) {
    if (!marked && String(chunk).includes('\x1b[?2026h')) {
      marked = true;
      appendFileSync(log, `${process.pid} #ink-frame\n`);
    }
    return write.call(this, chunk, ...rest);
  };
}
