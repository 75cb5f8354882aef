// switchboard profiles list | use | remove | read-only | allow-http
import { Command } from 'commander';
import type { ProfileSummary } from '../config/config.js';
import { nonEmpty } from './input.js';
import { type Column } from '../format/column.js';
import { printList } from './output.js';
import { escapeLine } from '../format/escape.js';
import { action, globalsOf, outputFor, refuseWhenReadOnly, UsageError } from './runtime.js';
import { io } from './io.js';

/** A saved profile as scripts see it in json too: `id` is the name, the key is masked. */
type ProfileRow = ProfileSummary & { id: string };

const PROFILE_COLUMNS: Column<ProfileRow>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'current', value: (p) => (p.current ? '*' : '') },
  { header: 'kind', value: (p) => p.kind },
  { header: 'base url', value: (p) => p.baseUrl },
  { header: 'key', value: (p) => p.apiKey },
  { header: 'read-only', value: (p) => (p.readOnly ? 'yes' : '') },
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
      action('switch profiles', async (name: string, _o: object, c: Command) => {
        refuseWhenReadOnly(c, 'changing the current profile');
        (await config()).setCurrentProfile(name);
        io().stdout.write(`active profile: ${name}\n`);
      }),
    );

  cmd
    .command('remove')
    .description('forget a profile and its key')
    .argument('<name>', 'profile name', nonEmpty)
    .addHelpText('after', '\nExamples:\n  $ switchboard profiles remove staging')
    .action(
      action('remove the profile', async (name: string, _o: object, c: Command) => {
        refuseWhenReadOnly(c, 'removing a profile');
        (await config()).removeProfile(name);
        io().stdout.write(`removed profile ${name}\n`);
      }),
    );

  cmd
    .command('read-only')
    .description("set a profile's read-only setting: on refuses every write through it, as --read-only does")
    .argument('<name>', 'profile name', nonEmpty)
    .argument('<on|off>', 'on or off', onOff)
    .addHelpText('after', '\nExamples:\n  $ switchboard profiles read-only prod on')
    .action(
      action("change the profile's read-only setting", async (name: string, on: boolean, _o: object, c: Command) => {
        refuseWhenReadOnly(c, 'changing a profile');
        (await config()).setProfileReadOnly(name, on);
        io().stdout.write(`profile ${name}: read-only ${on ? 'on' : 'off'}\n`);
      }),
    );

  cmd
    .command('allow-http')
    .description(
      "set a profile's allow-http setting: on lets its base URL be http:// to a host that is not this machine (the key then crosses the network unencrypted)",
    )
    .argument('<name>', 'profile name', nonEmpty)
    .argument('<on|off>', 'on or off', onOffFor('allow-http'))
    .addHelpText('after', '\nExamples:\n  $ switchboard profiles allow-http lab on')
    .action(
      action("change the profile's allow-http setting", async (name: string, on: boolean, _o: object, c: Command) => {
        refuseWhenReadOnly(c, 'changing a profile');
        (await config()).setProfileAllowHttp(name, on);
        io().stdout.write(`profile ${name}: allow-http ${on ? 'on (its key is sent unencrypted over http://)' : 'off'}\n`);
      }),
    );

  return cmd;
}

const onOff = onOffFor('read-only');

function onOffFor(setting: string): (value: string) => boolean {
  return (value) => {
    if (value === 'on' || value === 'off') return value === 'on';
    throw new UsageError(`${setting} takes on or off, not "${escapeLine(value)}"`);
  };
}
