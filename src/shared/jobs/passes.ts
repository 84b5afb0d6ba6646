/**
 * A background pass that many callers ask for (send the pending alerts, start the pending top-ups).
 * A call while no pass runs starts one; a call while one runs waits for one more pass, which begins
 * after the current one and so after the caller's own transaction committed; a burst of calls
 * shares that one queued pass. Returns the function to call.
 */
export function coalescedPasses(pass: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const run: Promise<void> = pass().finally(() => {
      if (current === run) current = null;
    });
    current = run;
    return run;
  };
  return () => {
    if (!current) return start();
    queued ??= current
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return start();
      });
    return queued;
  };
}
