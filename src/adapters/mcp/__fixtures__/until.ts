/** Resolves once `check` answers true, polling every 100 ms; rejects after `limitMs`. */
export async function until(check: () => Promise<boolean>, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
