// A top-level await that never settles, while a live interval keeps the process busy: it neither loads
// nor lets the process end by itself.
setInterval(() => undefined, 1_000);
await new Promise(() => undefined);

export const never = true;
