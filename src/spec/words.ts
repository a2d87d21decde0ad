// How counts are worded on screen, in the lowest layer so that the engine's reasons ("1 real
// thread on your 2 cores") and the views ("3 threads") say them the same way.

/** `n` and a noun, the noun plural unless n is 1: "1 round", "3 rounds". */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Every one of `n` things: "its one point", "both points", "all 5 points" ("all 2 points" read
 * as a slip, "all 1 points" as a bug). */
export const everyOne = (n: number, noun: string) =>
  n === 1 ? `its one ${noun}` : n === 2 ? `both ${noun}s` : `all ${n} ${noun}s`;

/** A value as the visitor gave it, in a message: as is when every character shows (letters,
 * digits, punctuation, symbols, single inner spaces); else quoted, with what would not show
 * escaped: blank space (`threads=" "`, not `threads= `), and characters that print nothing, such
 * as a zero-width space (`threads="5\u200b"`, not `threads=5`, "is not a whole number"). */
export function valueShown(raw: string): string {
  const shows = /^[\p{L}\p{N}\p{P}\p{S}]+( [\p{L}\p{N}\p{P}\p{S}]+)*$/u;
  if (shows.test(raw)) return raw;
  return JSON.stringify(raw).replace(
    /[^\p{L}\p{N}\p{P}\p{S} ]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
