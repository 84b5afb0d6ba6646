/** A real wait; what every `sleep` argument defaults to (tests pass one that moves a pinned clock). */
export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
