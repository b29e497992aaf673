/** Resolves on the event loop's next turn: a sliced job's pause between slices. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
