// switchboard profiles list | use | remove
import { Command } from 'commander';
import { nonEmpty } from './input.js';
import { printList, type Column } from './output.js';
import { action, globalsOf, outputFor } from './runtime.js';

export interface ProfileRow {
  id: string;
  active: boolean;
  baseUrl: string;
  key: string;
}

export const PROFILE_COLUMNS: Column<ProfileRow>[] = [
  { header: 'name', value: (p) => p.id },
  { header: 'active', value: (p) => (p.active ? '*' : '') },
  { header: 'base url', value: (p) => p.baseUrl },
  { header: 'key', value: (p) => p.key },
];

/** Saved profiles with their keys masked; the records scripts see in json too. */
export async function profileRows(): Promise<ProfileRow[]> {
  const { listProfiles, maskKey } = await import('../config/index.js');
  return listProfiles().map((p) => ({ id: p.name, active: p.active, baseUrl: p.baseUrl, key: maskKey(p.apiKey) }));
}

export function profilesCommand(): Command {
  const cmd = new Command('profiles').description('list, switch and remove saved profiles (login adds them)');

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
        const { useProfile } = await import('../config/index.js');
        useProfile(name);
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
        const { removeProfile } = await import('../config/index.js');
        removeProfile(name);
        process.stdout.write(`removed profile ${name}\n`);
      }),
    );

  return cmd;
}
