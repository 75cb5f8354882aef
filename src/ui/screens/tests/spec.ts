// The conversation tests' routes: the results of a run, and one result.
import type { Route } from '../../../store/types.js';
import type { RouteSpecs } from '../route-spec.js';

/** `:test [path] [--samples N]`: a path may hold spaces, so the option is read from the end. */
function testsRoute(arg: string | undefined): Extract<Route, { name: 'tests' }> {
  const m = /(?:^|\s)--samples[= ](\d+)\s*$/.exec(arg ?? '');
  const path = (m ? arg!.slice(0, m.index) : arg)?.trim();
  const samples = m ? Number(m[1]) : 1;
  return { name: 'tests', ...(path ? { path } : {}), ...(samples > 1 ? { samples } : {}) };
}

export const TESTS = {
  tests: {
    title: () => 'Tests',
    contexts: ['tests', 'list', 'global'],
    component: () => import('./TestResults.js').then((m) => m.TestResults),
    // Runs its scenarios when it comes on top with nothing run for its path yet.
    enter(r, a, s) {
      if (s.tests.status === 'idle' || s.tests.path !== r.path || s.tests.samples !== r.samples) void a.runTests(r.path, r.samples);
    },
    palette: { name: 'test', aliases: ['t'], arg: 'path [--samples N]', rest: true, write: true, open: (arg) => [testsRoute(arg)] },
  },
  'test-result': {
    title: (r) => r.scenario,
    contexts: ['tests', 'scroll', 'global'],
    component: () => import('./TestResults.js').then((m) => m.TestResultDetail),
  },
} satisfies RouteSpecs<'tests' | 'test-result'>;
