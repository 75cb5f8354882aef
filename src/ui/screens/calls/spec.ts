// The calls' routes: the call log, one call, full-text search, stats, the filters and an outbound call.
import type { Call } from '../../../api/schemas.js';
import { freshnessOfResource, lookup } from '../../../store/routes.js';
import { Footer } from '../../keymap.js';
import { defineRoutes, type NoParams } from '../route-spec.js';
import { pickItems } from '../find.js';
import { matchRecords } from '../../../format/short-id.js';
import { COPY_NUMBER, OPEN_ASSISTANT, OUTBOUND, PAGER, copyIdKey, rowKey, selectedOf, type SharedKey } from '../keys.js';
import type { Selected } from '../../hooks/selection.js';

/** What CallStats.tsx gives `m`: the switch of the chart it holds. */
export interface StatsSelection extends Selected {
  nextMetric?: () => void;
}

/** The calls loaded, then the archive's others. */
function withArchived(loaded: readonly Call[], archived: readonly Call[]): Call[] {
  const held = new Set(loaded.map((c) => c.id));
  return [...loaded, ...archived.filter((c) => !held.has(c.id))];
}

/** `s` on the log and on a search's matches: the palette's `:search`, with the text searched for there. */
const SEARCH = { keys: [{ char: 's' }], hint: 'search transcripts (:search text)', footer: Footer.Normal };

/** `a` on a call: its assistant's page (a call placed without one says so). */
const openAssistant = rowKey<Pick<Call, 'assistantId'>>(OPEN_ASSISTANT, 'call', (c, { actions }) =>
  c.assistantId ? actions.push({ name: 'assistant', id: c.assistantId }) : actions.flash('This call has no assistant', 'error'),
);

/** The keys on one call: its row in the log, and its own page. */
const CALL_KEYS: Record<string, SharedKey> = {
  openAssistant,
  copyId: copyIdKey('call'),
  copyNumber: rowKey<Pick<Call, 'customer'>>(COPY_NUMBER, 'call', (c, { ui }) => ui.copy('customer number', c.customer?.number)),
};

export const CALLS = defineRoutes<{
  // `drill`: the log of one assistant's or one number's calls (`C`), whose filter is its own: leaving it, the log has its filters again.
  calls: { drill?: { assistantId: string } | { phoneNumberId: string } };
  call: { id: string; match?: string };
  'call-search': { text: string };
  'call-stats': NoParams;
  'call-filters': NoParams;
  'call-outbound': { assistantId?: string };
}>()({
  calls: {
    title: () => 'Calls',
    contexts: ['calls', 'list', 'global'],
    jump: '3',
    help: 'Calls',
    component: () => import('./Calls.js').then((m) => m.Calls),
    firstFrame: () => 'Loading the call log…',
    enter(_r, a, s) {
      void a.loadAssistants(lookup);
      void a.loadNumbers(lookup);
      // The call log is folded into, not reloaded: the calls loaded and the cursor stay.
      void (s.callLog.status === 'ready' ? a.refreshCalls() : a.loadCalls());
    },
    keys: {
      outbound: { ...OUTBOUND, run: ({ actions }) => actions.push({ name: 'call-outbound' }) },
      ...CALL_KEYS,
      callFilters: { keys: [{ char: 'f' }], hint: 'filters', footer: Footer.Normal, run: ({ actions }) => actions.push({ name: 'call-filters' }) },
      toggleLive: { keys: [{ char: 'L' }], hint: 'live on/off', footer: Footer.Normal, run: ({ actions }) => actions.toggleLive() },
      search: { ...SEARCH, run: ({ actions }) => actions.openPalette('search ') },
      stats: {
        keys: [{ char: 'S' }],
        hint: 'stats',
        footer: Footer.Normal,
        run: ({ actions }) => actions.push({ name: 'call-stats' }),
        // The log is read and holds none (of its filters' calls, or at all): every figure would be 0.
        disabled: ({ state: { callLog: l } }) => (l.status === 'ready' && l.total === 0 && !l.filtering ? 'no call to count' : undefined),
      },
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
      // A whole id or a short id (its end) of a call the log holds names that call: the log's short ids are
      // unique among the calls it holds. Else the archive's calls are looked in too; an id found in neither
      // is asked of the service.
      find: (arg, s) => {
        const held = matchRecords(arg, s.callLog.calls);
        const found = held.by === 'id' || held.by === 'end' ? held : matchRecords(arg, withArchived(s.callLog.calls, s.actions.callsWithIdPart(arg)));
        return {
          items: pickItems(
            found.records,
            () => undefined,
            (c) => [c.createdAt, c.customer?.number].filter(Boolean).join(' · '),
          ),
          what: 'call',
          open: 'call',
          complete: false,
        };
      },
    },
  },
  call: {
    title: (r) => `call ${r.id}`,
    contexts: ['call', 'detail', 'global'],
    help: 'Calls',
    component: () => import('./CallDetail.js').then((m) => m.CallDetail),
    keys: {
      ...CALL_KEYS,
      // The page as shown, which CallDetail.tsx lays out: it binds this.
      pager: PAGER,
      testFromCall: {
        keys: [{ char: 'T' }],
        hint: 'make a test from it',
        footer: Footer.Low,
        write: true,
        run: ({ route, state, actions }) => void actions.saveCallAsScenario(state.records[`call:${route.id}`]!.data as Call),
        // The full record only: a listed call has no transcript to replay.
        disabled({ route, state }) {
          const rec = state.records[`call:${route.id}`];
          return rec?.data ? undefined : rec?.status === 'error' ? 'the whole call could not be loaded' : 'the whole call is not in yet';
        },
      },
    },
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
    viewKey: (r) => `call-search:${r.text}`,
    contexts: ['search', 'list', 'global'],
    help: 'Calls',
    component: () => import('./CallSearch.js').then((m) => m.CallSearch),
    // Its rows are matches: the screen gives the match's call.
    keys: {
      openAssistant,
      copyId: copyIdKey('call'),
      search: { ...SEARCH, run: ({ route, actions }) => actions.openPalette(`search ${route.text}`) },
    },
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
    // Its own section: the call log has a chart too, which `m` does not switch.
    help: 'Call stats (S)',
    component: () => import('./CallStats.js').then((m) => m.CallStats),
    keys: {
      // The chart is the screen's: it gives the switch.
      chartMetric: {
        keys: [{ char: 'm' }, { key: 'tab' }],
        hint: 'chart calls/minutes/cost',
        footer: Footer.Normal,
        run: (a) => selectedOf<StatsSelection>(a)?.nextMetric?.(),
      },
    },
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
});
