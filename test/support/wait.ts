// Polls a condition on the store (or anything in-process) until it holds; fails the test naming it.
// The deadline guards against a hang, and is no clock: on a machine whose cores another process
// keeps busy, a step can take many times what it takes on an idle one. SWITCHBOARD_TEST_WAIT_MS
// shortens it (to see a stuck test fail fast).
export const GUARD_MS = Number(process.env.SWITCHBOARD_TEST_WAIT_MS) || 10 * 60_000;

export async function until(ok: () => boolean, what = 'the condition'): Promise<void> {
  const end = Date.now() + GUARD_MS;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
