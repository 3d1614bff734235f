/** Polls `check` every 20 ms until it holds; throws, naming `what`, once `timeoutMs` has passed. */
export async function waitFor(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
