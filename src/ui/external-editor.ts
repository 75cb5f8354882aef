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

/** Shows `text` (already escaped: the caller's service text) in $PAGER; resolves when the pager exits. */
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
  if (code !== 0 && code !== null) throw new EditorFailed(`the pager (${command}) exited with code ${code}`);
}
