// switchboard whoami: which service the commands talk to, with which profile and key (masked).
import { Command } from 'commander';
import { printRecord, type Column } from './output.js';
import { action, globalsOf, outputFor } from './runtime.js';

export interface Identity {
  id: string;
  profile: string;
  target: string;
  baseUrl: string;
  key: string;
}

const IDENTITY_COLUMNS: Column<Identity>[] = [
  { header: 'profile', value: (i) => i.profile },
  { header: 'target', value: (i) => i.target },
  { header: 'base url', value: (i) => i.baseUrl },
  { header: 'key', value: (i) => i.key },
];

export async function whoami(profile: string | undefined): Promise<Identity> {
  const { resolveTarget, maskKey } = await import('../config/index.js');
  const t = resolveTarget({ profile, env: process.env });
  return { id: t.profile, profile: t.profile, target: t.kind, baseUrl: t.baseUrl ?? '', key: t.apiKey ? maskKey(t.apiKey) : '' };
}

export function whoamiCommand(): Command {
  return new Command('whoami')
    .description('show the target service, the profile and the (masked) key the commands use')
    .addHelpText('after', '\nExamples:\n  $ switchboard whoami\n  $ switchboard --profile prod whoami -o json')
    .action(
      action('show the identity', async (_o: object, c: Command) => {
        const g = globalsOf(c);
        printRecord(outputFor(g), await whoami(g.profile), IDENTITY_COLUMNS);
      }),
    );
}
