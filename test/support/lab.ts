// The tmux end-to-end files' common set-up: the file's own sandbox, a home whose `lab` profile
// points at it, and the consoles a file starts in tmux, killed when it ends.
import { after, before } from 'node:test';
import { saveProfile } from '../../src/config/config.js';
import { tempHome, type CliHome } from './cli.js';
import { sandboxForFile, type FileSandbox } from './sandbox.js';
import type { TmuxSession } from './tmux.js';

export interface Lab {
  sb: FileSandbox;
  /** Made once the sandbox is up (in the file's `before`). */
  home: CliHome;
  sessions: TmuxSession[];
}

export function labForFile(): Lab {
  const sb = sandboxForFile();
  const lab = { sb, sessions: [] as TmuxSession[] } as Lab;
  before(async () => {
    await sb.started;
    lab.home = tempHome();
    saveProfile('lab', { baseUrl: sb.url, apiKey: sb.apiKey }, lab.home.env);
  });
  after(() => {
    lab.sessions.forEach((s) => s.kill());
    lab.home.cleanup();
  });
  return lab;
}
