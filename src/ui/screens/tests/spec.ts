// The conversation tests' routes: the results of a run, and one result.
import type { Route } from '../../../store/types.js';
import { Footer } from '../../keymap.js';
import { defineRoutes } from '../route-spec.js';

/** `r` on the results and on one result: the run again (a run under way stops, and this one starts). */
const RUN_AGAIN = { keys: [{ char: 'r' }], hint: 'run again', footer: Footer.Normal };

/** `:test [path] [--samples N]`: a path may hold spaces, so the option is read from the end. */
function testsRoute(arg: string | undefined): Extract<Route, { name: 'tests' }> {
  const m = /(?:^|\s)--samples[= ](\d+)\s*$/.exec(arg ?? '');
  const path = (m ? arg!.slice(0, m.index) : arg)?.trim();
  const samples = m ? Number(m[1]) : 1;
  return { name: 'tests', ...(path ? { path } : {}), ...(samples > 1 ? { samples } : {}) };
}

export const TESTS = defineRoutes<{
  tests: { path?: string; samples?: number };
  'test-result': { id: string; scenario: string };
}>()({
  tests: {
    title: () => 'Tests',
    viewKey: (r) => `${r.path ? `tests:${r.path}` : 'tests'}${r.samples ? `×${r.samples}` : ''}`,
    contexts: ['tests', 'list', 'global'],
    help: 'Tests',
    component: () => import('./TestResults.js').then((m) => m.TestResults),
    // Runs its scenarios when it comes on top with nothing run for its path yet.
    enter(r, a, s) {
      if (s.tests.status === 'idle' || s.tests.path !== r.path || s.tests.samples !== r.samples) void a.runTests(r.path, r.samples);
    },
    keys: { runTestsAgain: { ...RUN_AGAIN, run: ({ route, actions }) => void actions.runTests(route.path, route.samples) } },
    palette: { name: 'test', aliases: ['t'], arg: 'path [--samples N]', rest: true, write: true, open: (arg) => [testsRoute(arg)] },
  },
  'test-result': {
    title: (r) => r.scenario,
    contexts: ['tests', 'scroll', 'global'],
    component: () => import('./TestResults.js').then((m) => m.TestResultDetail),
    // The run its results came from: the result shows again once its scenario has run.
    keys: { runTestsAgain: { ...RUN_AGAIN, run: ({ state, actions }) => void actions.runTests(state.tests.path, state.tests.samples) } },
  },
});
