// The presenter's keys: which action a key press asks for, or none (so typing into a control, or a
// slider's own arrow keys, is never taken away from it). Pure, so it is tested without a page.

export type PresenterAction =
  'next' | 'prev' | 'run-pause' | 'sweep' | 'reset' | 'fullscreen' | 'help' | 'close' | 'audience';

/** What each key does, in the order the help lists them. */
export const PRESENTER_KEYS: Array<{ keys: string[]; action: PresenterAction; label: string }> = [
  { keys: ['ArrowRight', 'PageDown'], action: 'next', label: 'next step' },
  { keys: ['ArrowLeft', 'PageUp'], action: 'prev', label: 'previous step' },
  { keys: [' '], action: 'run-pause', label: 'run, pause, resume' },
  { keys: ['s'], action: 'sweep', label: 'sweep the chart' },
  { keys: ['r'], action: 'reset', label: 'reset: stop, clear, controls to their defaults' },
  { keys: ['f'], action: 'fullscreen', label: 'full screen on / off' },
  { keys: ['a'], action: 'audience', label: 'open the audience window' },
  { keys: ['?'], action: 'help', label: 'show these keys' },
  { keys: ['Escape'], action: 'close', label: 'close this list' },
];

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** Held down: the key's auto-repeat. */
  repeat?: boolean;
  /** The focused element: its tag name and, for inputs, its type. */
  targetTag?: string;
  targetType?: string;
}

/** What the focused element does with keys itself: typing fields take every key but Escape,
 * sliders their arrows, radio buttons their arrows and space, buttons and checkboxes space. A
 * slider does nothing with space, so space runs there: a speaker who set a value by keyboard
 * runs it without tabbing away. */
function ownedByTarget(e: KeyPress, action: PresenterAction): boolean {
  const tag = (e.targetTag ?? '').toUpperCase();
  const type = (e.targetType ?? '').toLowerCase();
  const typing =
    tag === 'TEXTAREA' ||
    tag === 'SELECT' ||
    (tag === 'INPUT' && !['range', 'radio', 'checkbox'].includes(type));
  if (typing) return action !== 'close';
  const movesWithArrows = tag === 'INPUT' && (type === 'range' || type === 'radio');
  if (movesWithArrows)
    return action === 'next' || action === 'prev' || (type === 'radio' && action === 'run-pause');
  const togglesWithSpace = tag === 'BUTTON' || (tag === 'INPUT' && type === 'checkbox');
  return togglesWithSpace && action === 'run-pause';
}

export function actionForKey(e: KeyPress): PresenterAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const entry = PRESENTER_KEYS.find((k) => k.keys.includes(e.key));
  if (!entry || ownedByTarget(e, entry.action)) return null;
  // A held key repeats: steps may run on (→ held walks the steps), a toggle must not flip on and
  // off (space held ran, paused, ran…).
  if (e.repeat && entry.action !== 'next' && entry.action !== 'prev') return null;
  return entry.action;
}
