// The calls' routes: the call log, one call, full-text search, stats, the filters and an outbound call.
import type { Call } from '../../../api/schemas.js';
import { freshnessOfResource, lookup } from '../../../store/routes.js';
import type { RouteSpecs } from '../route-spec.js';
import { findRecords } from '../find.js';

/** The calls loaded, then the archive's others. */
function withArchived(loaded: readonly Call[], archived: readonly Call[]): Call[] {
  const held = new Set(loaded.map((c) => c.id));
  return [...loaded, ...archived.filter((c) => !held.has(c.id))];
}

export const CALLS = {
  calls: {
    title: () => 'Calls',
    contexts: ['calls', 'list', 'global'],
    component: () => import('./Calls.js').then((m) => m.Calls),
    enter(_r, a, s) {
      void a.loadAssistants(lookup);
      void a.loadNumbers(lookup);
      // The call log is folded into, not reloaded: the calls loaded and the cursor stay.
      void (s.callLog.status === 'ready' ? a.refreshCalls() : a.loadCalls());
    },
    // The live call log.
    poll: (_r, s) => (s.callLog.live && s.callLog.status === 'ready' ? () => s.actions.refreshCalls() : null),
    retried: true,
    freshness(_r, s) {
      if (s.callLog.calls.length === 0) return { state: 'fresh' };
      if (s.archiveSync.running) return { state: 'refreshing' };
      if (s.archiveSync.error !== undefined) return { state: 'stale', error: s.archiveSync.error };
      if (s.callLog.error !== undefined) return { state: 'stale', error: s.callLog.error };
      return { state: 'fresh' };
    },
    palette: {
      name: 'calls',
      aliases: ['c'],
      arg: 'id',
      open: (id) => [{ name: 'calls' }, id ? { name: 'call', id } : undefined],
      // The calls the log holds and those the archive holds with that id's start: a short id opens its call; an id
      // found in neither is asked of the service.
      find: (arg, s) => ({
        items: findRecords(
          arg,
          withArchived(s.callLog.calls, s.actions.callsWithIdPrefix(arg)),
          () => undefined,
          (c) => [c.createdAt, c.customer?.number].filter(Boolean).join(' · '),
        ),
        what: 'call',
        open: 'call',
        complete: false,
      }),
    },
  },
  call: {
    title: (r) => `call ${r.id}`,
    contexts: ['call', 'detail', 'global'],
    component: () => import('./CallDetail.js').then((m) => m.CallDetail),
    enter(r, a) {
      void a.loadAssistants(lookup);
      void a.loadNumbers(lookup);
      void a.loadCall(r.id);
    },
    // A call that has not ended yet.
    poll(r, s) {
      const rec = s.records[`call:${r.id}`];
      return rec?.status === 'ready' && (rec.data as Call | undefined)?.status !== 'ended' ? () => s.actions.loadCall(r.id) : null;
    },
    retried: true,
    freshness: (r, s) => freshnessOfResource(s.records[`call:${r.id}`]),
  },
  // The list of matches: Enter opens a call with the match in view. 's' searches again.
  'call-search': {
    // Quoted once: a search for "a phrase" brings its own quotes.
    title: (r) => (r.text.includes('"') ? `search ${r.text}` : `search "${r.text}"`),
    contexts: ['search', 'list', 'global'],
    component: () => import('./CallSearch.js').then((m) => m.CallSearch),
    enter(r, a) {
      void a.loadAssistants();
      void a.loadNumbers();
      a.searchCalls(r.text);
    },
    palette: {
      name: 'search',
      aliases: [],
      arg: 'text',
      rest: true,
      required: 'What to search for? :search <words, "a phrase" or prefix*>',
      open: (text) => [{ name: 'call-search', text: text ?? '' }],
      onTop: true,
    },
  },
  'call-stats': {
    title: () => 'stats',
    contexts: ['stats', 'detail', 'global'],
    component: () => import('./CallStats.js').then((m) => m.CallStats),
    enter(_r, a) {
      void a.loadAssistants();
      void a.loadNumbers();
      a.loadCallStats({ force: true });
    },
    afterSync: (_r, a) => a.loadCallStats({ force: true }),
    palette: { name: 'stats', aliases: [], open: () => [{ name: 'call-stats' }], onTop: true },
  },
  'call-filters': {
    title: () => 'filters',
    contexts: ['form'],
    component: () => import('./CallForms.js').then((m) => m.CallFilters),
    enter(_r, a) {
      void a.loadAssistants(lookup);
      void a.loadNumbers(lookup);
    },
  },
  'call-outbound': {
    title: () => 'outbound call',
    contexts: ['form'],
    component: () => import('./CallForms.js').then((m) => m.CallOutbound),
    enter(_r, a) {
      void a.loadAssistants(lookup);
      void a.loadNumbers(lookup);
    },
  },
} satisfies RouteSpecs<'calls' | 'call' | 'call-search' | 'call-stats' | 'call-filters' | 'call-outbound'>;
