// The presenter's window and the audience window talk over a BroadcastChannel named after the
// lesson: the presenter sends the step, the control values and commands; the audience window (the
// one on the projector, which runs the experiment) answers with its run's status, so the
// presenter's window can show notes and still know what the audience sees.
import type { ControlValues } from '../../lessons/controls';

export type PresenterCommand = 'run-pause' | 'sweep' | 'reset' | 'stop';

export interface AudienceStatus {
  /** idle | running | paused | done | stopped | error */
  state: string;
  completed: number;
  items: number;
  itemsPerSec: number;
  engine: string;
  /** The step's views fit the audience's screen at the floor sizes (false: they are cut). */
  fits: boolean;
}

export type PresenterMessage =
  | { type: 'hello' }
  | { type: 'bye' }
  | { type: 'state'; step: number; values: ControlValues }
  | { type: 'command'; command: PresenterCommand }
  | { type: 'status'; status: AudienceStatus }
  /** The audience's step has nothing `s` could sweep: the presenter says so on its screen. */
  | { type: 'no-sweep'; step: number };

export const channelName = (slug: string) => `pipelab-present/${slug}`;

/** Opens the lesson's channel; returns post and close. Where BroadcastChannel is missing (very
 * old browsers) nothing is sent and the presenter simply runs the experiment itself. */
export function openChannel(slug: string, onMessage: (m: PresenterMessage) => void) {
  if (typeof BroadcastChannel !== 'function') return { post: () => {}, close: () => {} };
  const channel = new BroadcastChannel(channelName(slug));
  channel.onmessage = (e: MessageEvent<PresenterMessage>) => onMessage(e.data);
  return {
    post: (m: PresenterMessage) => channel.postMessage(m),
    close: () => channel.close(),
  };
}
