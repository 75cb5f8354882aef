// The console's colours: a theme file sets the named colours, a mistake in it is one line, the
// light theme changes what the frame's colour codes are, and NO_COLOR still wins.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Palette } from '../../src/ui/theme.js';

// Colour on in chalk, as on a colour terminal; chalk reads this when Ink loads, hence the late imports.
process.env.FORCE_COLOR = '1';
const { THEMES, loadTheme, paletteFrom, sgrColor } = await import('../../src/ui/theme.js');
const { ConfigError } = await import('../../src/config/files.js');
const { chromeFrame } = await import('../../src/ui/start.js');
const { openConsole } = await import('./support.js');
const { createMemoryApi } = await import('../support/memory-api.js');

const line = (raw: unknown) => {
  try {
    paletteFrom(raw);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('paletteFrom', () => {
  test('a file starts from its base and sets the names it gives', () => {
    assert.deepEqual(paletteFrom(null), THEMES.dark);
    assert.deepEqual(paletteFrom({ accent: 'magentaBright' }), { ...THEMES.dark, accent: 'magentaBright' });
    assert.deepEqual(paletteFrom({ base: 'light', error: '#af0000', muted: 'ansi256(245)' }), { ...THEMES.light, error: '#af0000', muted: 'ansi256(245)' });
  });

  test('mistakes are one line naming them', () => {
    assert.match(line({ acent: 'red' }), /^"acent" is not a theme colour; known: base, accent, good, warning, error, muted, headerBg, headerText$/);
    assert.match(line({ accent: 'blurple' }), /^accent: "blurple" is not a colour; write a name \(red, blueBright, gray, …\), #rrggbb or ansi256\(n\)$/);
    assert.match(line({ accent: '#12345' }), /^accent: "#12345" is not a colour/);
    assert.match(line({ accent: 'ansi256(300)' }), /^accent: "ansi256\(300\)" is not a colour/);
    assert.match(line({ accent: 3 }), /^accent: 3 is not a colour/);
    assert.match(line({ base: 'solarized' }), /^base: expected light or dark, not "solarized"$/);
    assert.match(line(['red']), /^expected name: colour lines/);
  });

  test('the frame drawn before Ink writes the same colours Ink would', () => {
    assert.equal(sgrColor('cyan'), '36');
    assert.equal(sgrColor('blue', true), '44');
    assert.equal(sgrColor('#ff8000'), '38;2;255;128;0');
    assert.equal(sgrColor('#f80', true), '48;2;255;136;0');
    assert.equal(sgrColor('ansi256(245)'), '38;5;245');
  });
});

describe('the theme setting and file', () => {
  const home = mkdtempSync(join(tmpdir(), 'switchboard-theme-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  const file = join(home, 'config', 'switchboard', 'theme.yaml');
  after(() => rmSync(home, { recursive: true, force: true }));

  test('light and dark by name; none given: the file in the config dir, else dark', async () => {
    assert.equal(await loadTheme(undefined, env), THEMES.dark);
    assert.equal(await loadTheme('light', env), THEMES.light);
    mkdirSync(join(home, 'config', 'switchboard'), { recursive: true });
    writeFileSync(file, 'base: light\naccent: "#005f87"\n');
    assert.deepEqual(await loadTheme(undefined, env), { ...THEMES.light, accent: '#005f87' });
    assert.equal(await loadTheme('dark', env), THEMES.dark, 'a named theme is not changed by the file');
    const other = join(home, 'mine.yaml');
    writeFileSync(other, 'warning: redBright\n');
    assert.deepEqual(await loadTheme(other, env), { ...THEMES.dark, warning: 'redBright' });
  });

  test('a mistake is a ConfigError of one line naming the file', async () => {
    writeFileSync(file, 'accent: blurple\n');
    await assert.rejects(
      loadTheme(undefined, env),
      (err: Error) => err instanceof ConfigError && /theme\.yaml: accent: "blurple" is not a colour/.test(err.message),
    );
    writeFileSync(file, 'accent: [\n');
    await assert.rejects(
      loadTheme(undefined, env),
      (err: Error) => err instanceof ConfigError && /theme\.yaml: /.test(err.message) && !err.message.includes('\n'),
    );
    await assert.rejects(
      loadTheme('sepia', env),
      (err: Error) => err instanceof ConfigError && /^theme "sepia" is not light, dark or a theme file \(.*sepia does not exist\)$/.test(err.message),
    );
  });
});

/** Every SGR parameter list in the text. */
const sgrs = (text: string) => [...text.matchAll(/\x1b\[([\d;]*)m/g)].map((m) => m[1]);
const unstyled = (text: string) => text.replace(/\x1b\[[\d;]*m/g, '');
const hasColour = (text: string) => sgrs(text).some((s) => s.split(';').some((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p)));

describe('in the console', () => {
  const frameWith = async (palette: Palette, color = true) => {
    const c = await openConsole(createMemoryApi(), { initialRoute: { name: 'assistants' }, palette, capabilities: { color } });
    try {
      await c.waitFor(/online[\s\S]*NAME/);
      return c.frame();
    } finally {
      await c.close();
    }
  };

  test("the light theme's colours in the frame: the header's background, the table's heading", async () => {
    const dark = await frameWith(THEMES.dark);
    const light = await frameWith(THEMES.light);
    // Dark: white on blue, a cyan heading. Light: black on cyan, a blue heading.
    assert.ok(sgrs(dark).includes('44') && sgrs(dark).includes('36'), `dark: ${JSON.stringify(dark.slice(0, 200))}`);
    assert.ok(sgrs(light).includes('46') && sgrs(light).includes('34'), `light: ${JSON.stringify(light.slice(0, 200))}`);
    assert.ok(!sgrs(light).includes('44'), 'no blue background in the light theme');
    assert.ok(!sgrs(light).some((s) => s.split(';').includes('36')), 'no cyan text in the light theme');
  });

  test('NO_COLOR wins over a theme: no colour at all, the text is the same', async () => {
    const frame = await frameWith(THEMES.light, false);
    assert.ok(!hasColour(frame), JSON.stringify(frame.slice(0, 300)));
    assert.match(frame, /NAME/);
  });

  test('two consoles open in one process each draw in their own colours, frame after frame', async () => {
    const api = createMemoryApi();
    const dark = await openConsole(api, { initialRoute: { name: 'assistants' }, palette: THEMES.dark });
    const light = await openConsole(api, { initialRoute: { name: 'assistants' }, palette: THEMES.light });
    const bare = await openConsole(api, { initialRoute: { name: 'assistants' }, palette: THEMES.light, capabilities: { color: false } });
    try {
      for (const c of [dark, light, bare]) await c.waitFor(/online[\s\S]*NAME/);
      // Each draws again after the others have: a flash is a new frame, in that console's colours.
      for (const c of [dark, light, bare]) {
        c.store.getState().actions.flash('Drawn again', 'error');
        await c.waitFor('Drawn again');
      }
      const headerOf = (frame: string) => sgrs(frame.split('\n')[0]).join(' ');
      assert.ok(sgrs(dark.frame()).includes('44') && !sgrs(dark.frame()).includes('46'), `dark: ${headerOf(dark.frame())}`);
      assert.ok(sgrs(light.frame()).includes('46') && !sgrs(light.frame()).includes('44'), `light: ${headerOf(light.frame())}`);
      assert.ok(!hasColour(bare.frame()), `no colour: ${JSON.stringify(bare.frame().slice(0, 300))}`);
      assert.match(unstyled(bare.frame()), /^› \S/m, 'without colour, the selected row is marked');
      assert.doesNotMatch(unstyled(light.frame()), /^› /m, 'with colour, no marker column');
    } finally {
      for (const c of [dark, light, bare]) await c.close();
    }
  });

  test('the frame drawn before Ink uses the theme too, and none without colour', () => {
    const target = { kind: 'sandbox' as const, profile: 'sandbox', baseUrl: 'http://127.0.0.1:1' };
    const frame = chromeFrame(target, { name: 'assistants' }, 80, 24, true, undefined, undefined, THEMES.light);
    assert.ok(frame.includes('\x1b[30;46m'), JSON.stringify(frame.slice(0, 120)));
    assert.ok(!hasColour(chromeFrame(target, { name: 'assistants' }, 80, 24, false, undefined, undefined, THEMES.light)));
  });
});
