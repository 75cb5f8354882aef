// Each route's title (for breadcrumbs) and key contexts (footer, help, dispatch): plain data, no
// components, so the console's start can draw its first frame before React and Ink are loaded.
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
  assistants: info<'assistants'>(['global', 'list', 'assistants'], () => 'Assistants'),
  assistant: info<'assistant'>(['global', 'detail', 'assistant'], (r) => `assistant ${r.id}`),
  'assistant-new': info<'assistant-new'>(form, () => 'new assistant'),
  'assistant-edit': info<'assistant-edit'>(form, () => 'edit'),
  'assistant-kb': info<'assistant-kb'>(['picker'], () => 'knowledge base'),
  // No 'global': Esc discards here, and q must not quit past an unapplied edit. j/k scroll (useDetailKeys).
  'assistant-yaml': info<'assistant-yaml'>(['review'], () => 'YAML changes'),
  numbers: info<'numbers'>(['global', 'list', 'numbers'], () => 'Numbers'),
  'number-link': info<'number-link'>(['picker'], () => 'link assistant'),
  calls: info<'calls'>(['global', 'list', 'calls'], () => 'Calls'),
  call: info<'call'>(['global', 'detail', 'call'], (r) => `call ${r.id}`),
  // The list of matches: Enter opens a call with the match in view. 's' searches again.
  'call-search': info<'call-search'>(['global', 'list', 'search'], (r) => `search "${r.text}"`),
  'call-stats': info<'call-stats'>(['global', 'detail', 'stats'], () => 'stats'),
  'call-filters': info<'call-filters'>(form, () => 'filters'),
  'call-outbound': info<'call-outbound'>(form, () => 'outbound call'),
  chat: info<'chat'>(['global', 'list', 'sessions'], () => 'Chat'),
  'chat-new': info<'chat-new'>(['picker'], () => 'new chat'),
  // No 'global': the input line has the keys, so q and the digits are text here.
  'chat-session': info<'chat-session'>(['chat'], (r) => `session ${r.sessionId}`),
  files: info<'files'>(['global', 'list', 'files'], () => 'Files'),
  file: info<'file'>(['global', 'detail', 'file'], (r) => `file ${r.id}`),
  'file-upload': info<'file-upload'>(form, () => 'upload'),
  tests: info<'tests'>(['global', 'list', 'tests'], () => 'Tests'),
  'test-result': info<'test-result'>(['global', 'detail', 'tests'], (r) => r.scenario),
  help: info<'help'>(['global', 'detail'], () => 'Help'),
  json: info<'json'>(['global', 'detail'], (r) => `JSON ${r.title}`),
};

export function titleOf(r: Route): string {
  return (ROUTES[r.name].title as (r: Route) => string)(r);
}
