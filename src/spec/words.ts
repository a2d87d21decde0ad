// How counts are worded on screen, in the lowest layer so that the engine's reasons ("1 real
// thread on your 2 cores") and the views ("3 threads") say them the same way.

/** `n` and a noun, the noun plural unless n is 1: "1 round", "3 rounds". */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
