// Loaded with --import (NODE_OPTIONS): appends each file: URL a process loads to $SWITCHBOARD_LOAD_LOG,
// so a test can tell which of the bundle's chunks a start-up path reads.
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
