// Polls a condition on the store (or anything in-process) until it holds; fails the test naming it.
export async function until(ok: () => boolean, what = 'the condition', timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
