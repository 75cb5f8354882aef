// The `:` command palette: :assistants :numbers :calls :files :chat [id] :search <text> :stats :help :q, Tab completes.
import { useState } from 'react';
import { Text } from 'ink';
import { useActions, useConsole, type Route } from '../../store/index.js';
import { Priority, useKeypress } from '../hooks/keypress.js';
import { Command, commandFor } from '../keymap.js';
import { TextInput } from './TextInput.js';

export const PALETTE_COMMANDS = ['assistants', 'numbers', 'calls', 'chat', 'files', 'search', 'stats', 'help', 'q', 'quit'] as const;

/** What a palette line means: a route to jump to, quit, or an error. Exported for tests. */
export function parsePalette(line: string): { route: Route } | { quit: true } | { error: string } {
  const [word = '', arg] = line.trim().replace(/^:/, '').split(/\s+/);
  switch (word) {
    case 'search': {
      // The rest of the line, as typed: words, "phrases" and prefix* are the archive's query syntax.
      const text = line.trim().replace(/^:?search\b/, '').trim();
      return text ? { route: { name: 'call-search', text } } : { error: 'What to search for? :search <words, "a phrase" or prefix*>' };
    }
    case 'stats':
      return { route: { name: 'call-stats' } };
    case 'assistants':
    case 'numbers':
    case 'calls':
    case 'files':
      return { route: { name: word } };
    case 'chat':
      return { route: arg ? { name: 'chat', sessionId: arg } : { name: 'chat' } };
    case 'help':
      return { route: { name: 'help' } };
    case 'q':
    case 'quit':
      return { quit: true };
    default:
      return { error: `Unknown command :${word} (try ${PALETTE_COMMANDS.filter((c) => c !== 'quit').map((c) => ':' + c).join(' ')})` };
  }
}

/** Completes the first word to the single command it starts, or to the longest common prefix. */
export function completePalette(line: string): string {
  if (line.includes(' ')) return line;
  const hits = PALETTE_COMMANDS.filter((c) => c.startsWith(line));
  if (hits.length === 0) return line;
  if (hits.length === 1) return hits[0] + (hits[0] === 'chat' || hits[0] === 'search' ? ' ' : '');
  let p: string = hits[0];
  for (const h of hits) while (!h.startsWith(p)) p = p.slice(0, -1);
  return p;
}

export function Palette() {
  const seed = useConsole((s) => s.paletteSeed);
  const [line, setLine] = useState(seed);
  const actions = useActions();
  useKeypress(
    (input, key) => {
      const cmd = commandFor(input, key, ['palette']);
      if (cmd === Command.Cancel) actions.setMode('normal');
      else if (cmd === Command.Complete) setLine(completePalette(line));
      else if (key.return) {
        actions.setMode('normal');
        const r = parsePalette(line);
        if ('quit' in r) actions.quit();
        else if ('error' in r) actions.flash(r.error, 'error');
        else if (r.route.name === 'help' || r.route.name === 'call-search' || r.route.name === 'call-stats') actions.push(r.route);
        else actions.goTo(r.route);
      } else return false;
      return true;
    },
    { priority: Priority.Overlay },
  );
  const hint = line && !line.includes(' ') ? PALETTE_COMMANDS.filter((c) => c.startsWith(line) && c !== line).join(' ') : '';
  return (
    <Text>
      <Text color="yellow">:</Text>
      <TextInput value={line} onChange={setLine} focus />
      <Text dimColor> {hint}</Text>
    </Text>
  );
}

export function FilterBar({ value, editing }: { value: string; editing: boolean }) {
  const actions = useActions();
  useKeypress(
    (_input, key) => {
      if (key.escape) {
        actions.setFilter('');
        actions.setMode('normal');
      } else if (key.return) actions.setMode('normal');
      else return false;
      return true;
    },
    { priority: Priority.Overlay, active: editing },
  );
  return (
    <Text>
      <Text color="yellow">/</Text>
      <TextInput value={value} onChange={actions.setFilter} focus={editing} />
      {!editing ? <Text dimColor>  (/ edit, Esc in filter clears)</Text> : null}
    </Text>
  );
}
