// The user's keys: `${XDG_CONFIG_HOME:-~/.config}/switchboard/keys.yaml` remaps commands per key
// context (k9s hotkeys, lazygit `keybinding:`). It makes a new keymap table from the default one;
// the console makes it at start (ui/start.ts) and hands it down, so the dispatcher, the footer and
// help all read the user's keys. A mistake in the file is one line naming it, before the console
// takes the terminal.
//
//   calls:              # a key context (help's sections are made of them)
//     refresh: R        # a command: one key, or a list
//   list:
//     down: [j, ctrl-n, down]
import { join } from 'node:path';
import { ConfigError, readHandedFile } from '../config/files.js';
import { configDir, type Env } from '../config/paths.js';
import { Command, Keymap, describeKey, keysAt, type Binding, type KeyContext, type KeyDescriptor } from './keymap.js';

function keysFilePath(env: Env = process.env): string {
  return join(configDir(env), 'keys.yaml');
}

/** Ctrl-C and Ctrl-Z stay where every terminal user expects them. */
const FIXED = new Set<string>([Command.ForceQuit, Command.Suspend]);

const NAMED: Record<string, NonNullable<KeyDescriptor['key']>> = {
  enter: 'return',
  return: 'return',
  esc: 'escape',
  escape: 'escape',
  up: 'upArrow',
  down: 'downArrow',
  left: 'leftArrow',
  right: 'rightArrow',
  pgup: 'pageUp',
  pageup: 'pageUp',
  pgdn: 'pageDown',
  pagedown: 'pageDown',
  home: 'home',
  end: 'end',
  tab: 'tab',
  backspace: 'backspace',
  delete: 'delete',
};

/** One key as written in the file: `q`, `Q`, `/`, `space`, `enter`, `ctrl-r`, `alt-b`, `shift-tab`. */
export function parseKey(text: string): KeyDescriptor {
  const parts = text.split('-');
  let name = text;
  const d: KeyDescriptor = {};
  // A lone '-' is the key '-'; otherwise leading ctrl- / alt- / shift- are modifiers.
  while (parts.length > 1 && ['ctrl', 'alt', 'shift'].includes(parts[0].toLowerCase())) {
    const mod = parts.shift()!.toLowerCase() as 'ctrl' | 'alt' | 'shift';
    d[mod] = true;
    name = parts.join('-');
  }
  const named = NAMED[name.toLowerCase()];
  if (named) return { ...d, key: named };
  if (name.toLowerCase() === 'space') name = ' ';
  if ([...name].length !== 1 || /[\x00-\x1f\x7f]/.test(name)) {
    const names = 'enter, esc, tab, space, up, down, left, right, pgup, pgdn, home, end, backspace, delete';
    throw new Error(`"${text}" is not a key; write one character or one of ${names}, with ctrl-, alt- or shift-`);
  }
  if (d.shift) throw new Error(`"${text}": shift- goes with a named key (shift-tab); for a capital letter write it (Q)`);
  if (d.ctrl && !/^[a-z]$/i.test(name)) throw new Error(`"${text}": ctrl- goes with a letter`);
  return { ...d, char: d.ctrl ? name.toLowerCase() : name };
}

const sameKey = (a: KeyDescriptor, b: KeyDescriptor) =>
  a.char === b.char && a.key === b.key && !!a.ctrl === !!b.ctrl && !!a.alt === !!b.alt && !!a.shift === !!b.shift;

/**
 * The table `base` with the file's keys in it; throws an Error whose message is the one line to
 * show (an unknown context or command, a key that is no key, two commands on one key in a context).
 */
export function keymapWith(keymap: Keymap, raw: unknown): Keymap {
  if (raw === null || raw === undefined) return keymap;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error('expected key contexts (calls:, list:, global:, …), each with command: key lines');
  const base = keymap.table;
  const table: Record<string, Binding> = Object.fromEntries(Object.entries(base).map(([c, b]) => [c, { ...b, keysIn: { ...b.keysIn } }]));
  const contexts = new Set(Object.values(base).flatMap((b) => b.contexts));
  const commands = new Set<string>(Object.keys(base));
  for (const [context, entries] of Object.entries(raw as Record<string, unknown>)) {
    if (!contexts.has(context as KeyContext)) throw new Error(`"${context}" is not a key context; known: ${[...contexts].join(', ')}`);
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) throw new Error(`${context}: expected command: key lines`);
    for (const [command, keys] of Object.entries(entries as Record<string, unknown>)) {
      const here = Object.entries(base)
        .filter(([, b]) => b.contexts.includes(context))
        .map(([c]) => c);
      if (!commands.has(command)) throw new Error(`${context}: "${command}" is not a command; in ${context}: ${here.join(', ')}`);
      if (!here.includes(command)) throw new Error(`${context}: "${command}" has no key in ${context}; in ${context}: ${here.join(', ')}`);
      if (FIXED.has(command)) throw new Error(`${context}: ${command} stays on ${describeKey(base[command].keys[0])}`);
      const list = Array.isArray(keys) ? keys : [keys];
      if (list.length === 0 || list.some((k) => typeof k !== 'string' || k === '')) throw new Error(`${context}.${command}: expected a key or a list of keys`);
      const parsed = (list as string[]).map((k) => {
        try {
          return parseKey(k);
        } catch (err) {
          throw new Error(`${context}.${command}: ${(err as Error).message}`, { cause: err });
        }
      });
      table[command].keysIn![context as KeyContext] = parsed;
    }
  }
  for (const context of contexts) {
    const bound = Object.entries(table).filter(([, b]) => b.contexts.includes(context));
    for (const [i, [a, ba]] of bound.entries()) {
      for (const [b, bb] of bound.slice(i + 1)) {
        const clash = keysAt(ba, context).find((d) => keysAt(bb, context).some((e) => sameKey(d, e)));
        if (clash) throw new Error(`${describeKey(clash)} is bound twice in ${context}: ${a} and ${b}; give one of them another key`);
      }
    }
  }
  return new Keymap(table, keymap.sections);
}

/** The keymap `base` with the keys file in it, or `base` when there is none; a mistake is a ConfigError (one line). */
export async function loadUserKeymap(base: Keymap, env: Env = process.env): Promise<Keymap> {
  const path = keysFilePath(env);
  let text: string;
  try {
    text = readHandedFile(path, 'a keys file');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return base;
    throw new ConfigError(`${path} could not be read: ${(err as Error).message.replace(/^cannot read .*?: /, '')}`);
  }
  // The YAML parser loads only when there is a file: the first frame does not wait for it otherwise.
  const { settingsValue } = await import('../yaml.js');
  try {
    return keymapWith(base, settingsValue(text));
  } catch (err) {
    throw new ConfigError(`${path}: ${(err as Error).message}`);
  }
}
