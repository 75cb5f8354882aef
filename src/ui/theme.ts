// The console's few named colours: every colour it draws is one of these. The palette is a value
// made once at start (ui/start.ts loads it) and handed down: to React through context
// (hooks/theme-context.tsx, useTheme), to the frame drawn before Ink as an argument.
// Two are shipped (dark, the default, and light); `--theme` or `"theme"` in config.json picks
// light, dark or a theme file, and with neither `${XDG_CONFIG_HOME:-~/.config}/switchboard/theme.yaml`
// is read when it exists. A theme file starts from a shipped theme and sets any of the names:
//
//   base: light          # optional; dark when left out
//   accent: '#005f87'    # a colour name Ink knows (red, blueBright, gray, …), #rrggbb or ansi256(n)
//   warning: magenta
//
// A mistake in the file is one line naming it, before the console takes the terminal (as keys-file.ts).
// NO_COLOR and --no-color still win: without colour the console draws in COLOURLESS, whatever the theme.
// Free of React and Ink: start.ts reads it for the frame it draws before they load.
import { join } from 'node:path';
import { ConfigError, readHandedFile } from '../config/files.js';
import { configDir, type Env } from '../config/paths.js';
import type { Tone } from '../format/column.js';

export interface Palette {
  /** Headings, a table's header row, the spinner. */
  accent: string;
  /** Success: a done flash, live, online, a diff's added lines. */
  good: string;
  /** Attention: stale rows, the focused field, prompts, a confirm dialog, matches. */
  warning: string;
  /** Errors, failed calls, a diff's removed lines. */
  error: string;
  /** Quiet text: empty chart days, a prompt while sending. */
  muted: string;
  /** The header line's background and text. */
  headerBg: string;
  headerText: string;
}

type ColorName = keyof Palette;

const DARK: Palette = { accent: 'cyan', good: 'green', warning: 'yellow', error: 'red', muted: 'gray', headerBg: 'blue', headerText: 'white' };
// Yellow and cyan wash out on a light background: darker names in their place.
const LIGHT: Palette = { accent: 'blue', good: 'green', warning: 'magenta', error: 'red', muted: 'gray', headerBg: 'cyan', headerText: 'black' };

export const THEMES: Readonly<Record<'dark' | 'light', Palette>> = { dark: DARK, light: LIGHT };

/**
 * What a console without colour draws in: every name blank, which Ink draws as no colour at all
 * (text styles such as inverse and bold stay).
 */
export const COLOURLESS: Palette = { accent: '', good: '', warning: '', error: '', muted: '', headerBg: '', headerText: '' };

/** A column's tone (format/column.ts) in this palette's colours; dim is a style, not a colour. */
export function toneColor(palette: Palette, tone: Tone | undefined): string | undefined {
  if (tone === 'green') return palette.good;
  if (tone === 'yellow') return palette.warning;
  if (tone === 'red') return palette.error;
  if (tone === 'cyan') return palette.accent;
  return undefined;
}

const NAMES = Object.keys(DARK) as ColorName[];
// The colour names Ink's Text takes (chalk's foreground names), with their SGR codes.
const SGR_NAMED: Readonly<Record<string, number>> = {
  black: 30,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  gray: 90,
  grey: 90,
  blackBright: 90,
  redBright: 91,
  greenBright: 92,
  yellowBright: 93,
  blueBright: 94,
  magentaBright: 95,
  cyanBright: 96,
  whiteBright: 97,
};
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const ANSI256 = /^ansi256\((\d{1,3})\)$/;

function isColor(value: string): boolean {
  if (value in SGR_NAMED || HEX.test(value)) return true;
  const n = ANSI256.exec(value);
  return n !== null && Number(n[1]) <= 255;
}

/** The SGR parameters that set this colour, as Ink draws it (for the frame drawn before Ink). */
export function sgrColor(value: string, background = false): string {
  const named = SGR_NAMED[value];
  if (named !== undefined) return String(named + (background ? 10 : 0));
  const n = ANSI256.exec(value);
  if (n) return `${background ? 48 : 38};5;${n[1]}`;
  const hex = value.length === 4 ? [...value.slice(1)].map((c) => c + c).join('') : value.slice(1);
  const rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `${background ? 48 : 38};2;${rgb.join(';')}`;
}

/** A theme file's palette; throws an Error whose message is the one line to show. */
export function paletteFrom(raw: unknown): Palette {
  if (raw === null || raw === undefined) return DARK;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`expected name: colour lines (${NAMES.join(', ')}), and base: light or dark`);
  const entries = Object.entries(raw as Record<string, unknown>);
  const base = (raw as Record<string, unknown>).base;
  if (base !== undefined && base !== 'light' && base !== 'dark') throw new Error(`base: expected light or dark, not ${JSON.stringify(base)}`);
  const palette = { ...THEMES[(base as 'light' | 'dark' | undefined) ?? 'dark'] };
  for (const [name, value] of entries) {
    if (name === 'base') continue;
    if (!NAMES.includes(name as ColorName)) throw new Error(`"${name}" is not a theme colour; known: base, ${NAMES.join(', ')}`);
    if (typeof value !== 'string' || !isColor(value))
      throw new Error(`${name}: ${JSON.stringify(value)} is not a colour; write a name (red, blueBright, gray, …), #rrggbb or ansi256(n)`);
    palette[name as ColorName] = value;
  }
  return palette;
}

function themeFilePath(env: Env = process.env): string {
  return join(configDir(env), 'theme.yaml');
}

/**
 * The palette a `theme` setting names (`--theme` or config.json): light, dark or a theme file's
 * path; none given, the theme file in the config dir when there is one, else dark. A mistake is a
 * ConfigError (one line).
 */
export async function loadTheme(setting: string | undefined, env: Env = process.env): Promise<Palette> {
  if (setting === 'dark' || setting === 'light') return THEMES[setting];
  const path = setting ?? themeFilePath(env);
  let text: string;
  try {
    text = readHandedFile(path, 'a theme file');
  } catch (err) {
    if (setting === undefined && (err as { code?: string }).code === 'ENOENT') return DARK;
    if (setting !== undefined && (err as { code?: string }).code === 'ENOENT')
      throw new ConfigError(`theme "${setting}" is not light, dark or a theme file (${path} does not exist)`);
    throw new ConfigError(`${path} could not be read: ${(err as Error).message.replace(/^cannot read .*?: /, '')}`);
  }
  // The YAML parser loads only when there is a file: the first frame does not wait for it otherwise.
  const { settingsValue } = await import('../yaml.js');
  try {
    return paletteFrom(settingsValue(text));
  } catch (err) {
    throw new ConfigError(`${path}: ${(err as Error).message}`);
  }
}
