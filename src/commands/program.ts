// The whole program: the root and every resource's command, in the order help lists them. Help at
// the top, `help <command>`, completion and a mistyped command need the whole tree; a command named
// on the command line is built alone (index.ts).
import type { Command } from 'commander';
import { applySettings, rootProgram } from './root.js';
import { archiveCommand } from './archive.js';
import { assistantsCommand } from './assistants.js';
import { callsCommand } from './calls.js';
import { chatCommand } from './chat.js';
import { completionCommand } from './completion.js';
import { doctorCommand } from './doctor.js';
import { filesCommand } from './files.js';
import { loginCommand } from './login.js';
import { numbersCommand } from './numbers.js';
import { profilesCommand } from './profiles.js';
import { sandboxCommand } from './sandbox.js';
import { sessionsCommand } from './sessions.js';
import { whoamiCommand } from './whoami.js';
import { testCommand } from './test.js';
import { mcpCommand } from './mcp.js';

export function buildProgram(version: string): Command {
  const program = rootProgram(version);
  for (const cmd of [
    assistantsCommand(),
    numbersCommand(),
    callsCommand(),
    archiveCommand(),
    filesCommand(),
    sessionsCommand(),
    chatCommand(),
    sandboxCommand(),
    loginCommand(),
    profilesCommand(),
    whoamiCommand(),
    doctorCommand(),
    testCommand(),
    mcpCommand(),
    completionCommand(),
  ]) {
    program.addCommand(cmd);
  }
  applySettings(program);
  return program;
}
