// How counts are worded on screen, in the lowest layer so that the engine's reasons ("1 real
// thread on your 2 cores") and the views ("3 threads") say them the same way.

/** `n` and a noun, the noun plural unless n is 1: "1 round", "3 rounds". */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Every one of `n` things: "its one point", "both points", "all 5 points" ("all 2 points" read
 * as a slip, "all 1 points" as a bug). */
export const everyOne = (n: number, noun: string) =>
  n === 1 ? `its one ${noun}` : n === 2 ? `both ${noun}s` : `all ${n} ${noun}s`;

/** A value as the visitor gave it, in a message: quoted when it is empty or starts or ends with
 * blank space, which would otherwise not show (`threads=" "`, not `threads= `). */
export const valueShown = (raw: string) => (/^\S(.*\S)?$/s.test(raw) ? raw : JSON.stringify(raw));
