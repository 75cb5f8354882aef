// switchboard profiles list | use | remove
import { Command } from 'commander';
import type { ProfileSummary } from '../config/config.js';
import { nonEmpty } from './input.js';
import { type Column } from '../format/column.js';
import { printList } from './output.js';
import { action, globalsOf, outputFor } from './runtime.js';

/** A saved profile as scripts see it in json too: `id` is the name, the key is masked. */
type ProfileRow = ProfileSummary & { id: string };

const PROFILE_COLUMNS: Column<ProfileRow>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'current', value: (p) => (p.current ? '*' : '') },
  { header: 'kind', value: (p) => p.kind },
  { header: 'base url', value: (p) => p.baseUrl },
  { header: 'key', value: (p) => p.apiKey },
];

async function profileRows(): Promise<ProfileRow[]> {
  const { listProfiles } = await import('../config/config.js');
  return listProfiles().map((p) => ({ id: p.name, ...p }));
}

// The config module (and zod) load only for the commands that read the config.
const config = () => import('../config/config.js');

export function profilesCommand(): Command {
  const cmd = new Command('profiles')
    .description('list, switch and remove saved profiles (login adds them)')
    .addHelpText('after', '\nExamples:\n  $ switchboard profiles list\n  $ switchboard profiles use prod');

  cmd
    .command('list')
    .description('list saved profiles; * marks the active one')
    .addHelpText('after', '\nExamples:\n  $ switchboard profiles list\n  $ switchboard profiles list -o json')
    .action(action('list profiles', async (_o: object, c: Command) => printList(outputFor(globalsOf(c)), await profileRows(), PROFILE_COLUMNS)));

  cmd
    .command('use')
    .description('make a profile the active one for later commands and the console')
    .argument('<name>', 'profile name', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard profiles use prod')
    .action(
      action('switch profiles', async (name: string) => {
        (await config()).setCurrentProfile(name);
        process.stdout.write(`active profile: ${name}\n`);
      }),
    );

  cmd
    .command('remove')
    .description('forget a profile and its key')
    .argument('<name>', 'profile name', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard profiles remove staging')
    .action(
      action('remove the profile', async (name: string) => {
        (await config()).removeProfile(name);
        process.stdout.write(`removed profile ${name}\n`);
      }),
    );

  return cmd;
}
