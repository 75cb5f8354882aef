// switchboard whoami: which service the commands talk to, with which profile and key (masked).
import { Command } from 'commander';
import { maskKey } from '../config/mask.js';
import { jsonText } from '../format/escape.js';
import { type Column } from '../format/column.js';
import { toCsv, toFieldList } from './output.js';
import { action, globalsOf, outputFor } from './runtime.js';

interface Identity {
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

async function whoami(profile: string | undefined): Promise<Identity> {
  const { resolveTarget } = await import('../config/config.js');
  const t = resolveTarget({ profile, env: process.env });
  if (t.kind === 'sandbox') {
    // The embedded sandbox gets a fresh key and port each run; say where its data lives instead.
    return { profile: t.profile, target: `embedded sandbox (data in ${t.sandboxDataDir})`, baseUrl: '', key: '' };
  }
  return { profile: t.profile, target: 'remote service', baseUrl: t.baseUrl ?? '', key: t.apiKey ? maskKey(t.apiKey) : '' };
}

export function whoamiCommand(): Command {
  return new Command('whoami')
    .description('show the target service, the profile and the (masked) key the commands use')
    .addHelpText('after', '\nExamples:\n  $ switchboard whoami\n  $ switchboard --profile prod whoami -o json')
    .action(
      action('show the identity', async (_o: object, c: Command) => {
        const g = globalsOf(c);
        const me = await whoami(g.profile);
        const out = outputFor(g);
        if (out.format === 'json') out.write(jsonText(me, 2) + '\n');
        else if (out.format === 'ids') out.write(me.profile + '\n');
        else if (out.format === 'csv') out.write(toCsv([me], IDENTITY_COLUMNS));
        else out.write(toFieldList({ ...me }, out.tty, out.color));
      }),
    );
}
