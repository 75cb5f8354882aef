// Runs the user's editor on a text (the console's `E`: an assistant as YAML) and returns what
// they saved. $VISUAL, then $EDITOR, then vi, as git and kubectl do; the command may carry
// arguments (`code --wait`), so a shell runs it with the file as its last argument. The caller
// (app.tsx) has handed the terminal over first: this only spawns and waits. The pager (`v`) is run
// the same way, $PAGER (else `less -R`, as git does) reading the text on its stdin.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FALLBACK_EDITOR = 'vi';

/** The editor command: $VISUAL, else $EDITOR, else vi. */
function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || FALLBACK_EDITOR;
}

class EditorFailed extends Error {
  override name = 'EditorFailed';
}

/** Opens `text` as `fileName` in the editor; resolves with the saved text once the editor exits 0. */
export async function editInEditor(text: string, fileName: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-edit-'));
  const file = join(dir, fileName.replace(/[^A-Za-z0-9._-]+/g, '-'));
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const command = editorCommand(env);
    const code = await new Promise<number | null>((resolve, reject) => {
      // `exec`: the shell becomes the editor, so Ctrl-C reaches the editor alone (vi takes it as a key).
      const child = spawn('/bin/sh', ['-c', `exec ${command} "$1"`, 'editor', file], { stdio: 'inherit', env });
      child.on('error', reject);
      child.on('exit', (c, signal) => resolve(signal ? null : c));
    });
    if (code !== 0) throw new EditorFailed(`the editor (${command}) ${code === null ? 'was killed' : `exited with code ${code}`}; nothing was changed`);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const FALLBACK_PAGER = 'less -R';

// Pagers that hold the terminal until the user quits them, whatever the text's length: once they
// exit, the user has read the text. Any other pager (cat, `less -F` on a short text, more at the
// end of its text, bat's default `less -F`) may print and exit at once, and the console's repaint
// would wipe what it printed: for those the console waits for a key first, as lazygit and k9s do.
const HOLDING_PAGERS = new Set(['less', 'most', 'lv', 'vi', 'vim', 'nvim', 'view']);

/** Whether `command` (a $PAGER) keeps the terminal until the user quits it, so no key need be waited for after it. */
export function pagerHoldsScreen(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const [program = '', ...args] = command.split(/\s+/).map((word) => word.replace(/^['"]|['"]$/g, ''));
  const name = program.slice(program.lastIndexOf('/') + 1);
  if (!HOLDING_PAGERS.has(name)) return false;
  if (name !== 'less') return true;
  // less -F (--quit-if-one-screen, also from $LESS) exits by itself on a text that fits the screen.
  const quitsByItself = (flags: string) => /^-[^-]*F/.test(flags) || flags === '--quit-if-one-screen';
  const fromEnv = (env.LESS ?? '').split(/\s+/).filter(Boolean);
  return ![...args, ...fromEnv.map((f) => (f.startsWith('-') ? f : `-${f}`))].some(quitsByItself);
}

// Reads one key from the terminal (the whole read, so an arrow's escape sequence is one key) in a
// shell of its own: the console's key reader never sees it, and the terminal's modes are put back.
const WAIT_FOR_KEY = `printf '\\n%s' "$1"; s=$(stty -g); stty raw -echo; dd bs=64 count=1 >/dev/null 2>&1; stty "$s"; printf '\\n'`;
const PAGER_DONE_PROMPT = 'press any key to return to switchboard';

/**
 * Shows `text` (already escaped: the caller's service text) in $PAGER; resolves when the pager
 * exits, and for a pager that may exit by itself, once a key is then pressed.
 */
export async function showInPager(text: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const command = env.PAGER?.trim() || FALLBACK_PAGER;
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `exec ${command}`], { stdio: ['pipe', 'inherit', 'inherit'], env });
    child.on('error', reject);
    child.on('exit', (c, signal) => resolve(signal ? null : c));
    // A pager quit before reading it all closes the pipe: that is the user's choice, not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });
  if (!pagerHoldsScreen(command, env)) {
    await new Promise<void>((resolve) => {
      const wait = spawn('/bin/sh', ['-c', WAIT_FOR_KEY, 'wait', PAGER_DONE_PROMPT], { stdio: 'inherit', env });
      wait.on('error', () => resolve());
      wait.on('exit', () => resolve());
    });
  }
  if (code !== 0 && code !== null) throw new EditorFailed(`the pager (${command}) exited with code ${code}`);
}
