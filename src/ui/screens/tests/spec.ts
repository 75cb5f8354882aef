// The conversation tests' routes: the results of a run, and one result.
import type { RouteSpecs } from '../route-spec.js';

export const TESTS = {
  tests: {
    title: () => 'Tests',
    contexts: ['tests', 'list', 'global'],
    component: () => import('./TestResults.js').then((m) => m.TestResults),
    // Runs its scenarios when it comes on top with nothing run for its path yet.
    enter(r, a, s) {
      if (s.tests.status === 'idle' || s.tests.path !== r.path) void a.runTests(r.path);
    },
    palette: { name: 'test', aliases: ['t'], arg: 'path', rest: true, open: (path) => [path ? { name: 'tests', path } : { name: 'tests' }] },
  },
  'test-result': {
    title: (r) => r.scenario,
    contexts: ['tests', 'scroll', 'global'],
    component: () => import('./TestResults.js').then((m) => m.TestResultDetail),
  },
} satisfies RouteSpecs<'tests' | 'test-result'>;
