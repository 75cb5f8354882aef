// Each route's title (for breadcrumbs) and key contexts (footer, help, dispatch; the most specific
// first: a key means the command of the first context that binds it): plain data, no components,
// so the console's start can draw its first frame before React and Ink are loaded.
import type { Route, RouteName } from '../../store/types.js';
import type { KeyContext } from '../keymap.js';

export interface RouteInfo {
  contexts: KeyContext[];
  title: (r: never) => string;
}

const info = <N extends RouteName>(contexts: KeyContext[], title: (r: Extract<Route, { name: N }>) => string): RouteInfo =>
  ({ contexts, title }) as unknown as RouteInfo;

const form: KeyContext[] = ['form'];

export const ROUTES: Record<RouteName, RouteInfo> = {
  assistants: info<'assistants'>(['assistants', 'list', 'global'], () => 'Assistants'),
  assistant: info<'assistant'>(['assistant', 'detail', 'global'], (r) => `assistant ${r.id}`),
  'assistant-new': info<'assistant-new'>(form, () => 'new assistant'),
  'assistant-edit': info<'assistant-edit'>(form, () => 'edit'),
  'assistant-kb': info<'assistant-kb'>(['picker'], () => 'knowledge base'),
  // No 'global': Esc discards here, and q must not quit past an unapplied edit.
  'assistant-yaml': info<'assistant-yaml'>(['review', 'scroll'], () => 'YAML changes'),
  numbers: info<'numbers'>(['numbers', 'list', 'global'], () => 'Numbers'),
  'number-link': info<'number-link'>(['picker'], () => 'link assistant'),
  calls: info<'calls'>(['calls', 'list', 'global'], () => 'Calls'),
  call: info<'call'>(['call', 'detail', 'global'], (r) => `call ${r.id}`),
  // The list of matches: Enter opens a call with the match in view. 's' searches again.
  'call-search': info<'call-search'>(['search', 'list', 'global'], (r) => `search "${r.text}"`),
  'call-stats': info<'call-stats'>(['stats', 'detail', 'global'], () => 'stats'),
  'call-filters': info<'call-filters'>(form, () => 'filters'),
  'call-outbound': info<'call-outbound'>(form, () => 'outbound call'),
  chat: info<'chat'>(['sessions', 'list', 'global'], () => 'Chat'),
  'chat-new': info<'chat-new'>(['picker'], () => 'new chat'),
  // No 'global': the input line has the keys, so q and the digits are text here.
  'chat-session': info<'chat-session'>(['chat'], (r) => `session ${r.sessionId}`),
  files: info<'files'>(['files', 'list', 'global'], () => 'Files'),
  file: info<'file'>(['file', 'detail', 'global'], (r) => `file ${r.id}`),
  'file-upload': info<'file-upload'>(form, () => 'upload'),
  tests: info<'tests'>(['tests', 'list', 'global'], () => 'Tests'),
  'test-result': info<'test-result'>(['tests', 'scroll', 'global'], (r) => r.scenario),
  help: info<'help'>(['help', 'scroll', 'global'], () => 'Help'),
  json: info<'json'>(['scroll', 'global'], (r) => `JSON ${r.title}`),
};

export function titleOf(r: Route): string {
  return (ROUTES[r.name].title as (r: Route) => string)(r);
}
