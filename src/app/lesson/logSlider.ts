// Sliders over controls that span decades (batch sizes 1..4096, items 20..100000) move on a log
// scale: linear over 1..4096, 64 sat 1.5% from the left edge and every batch size a lesson talks
// about shared its first few pixels. The slider's position is in 0..POSITIONS; the value beside it
// is typed or stepped exactly (ControlsPanel).
import type { RangeControl } from '../../lessons/controls';

/** A control whose max is at least this many times its min gets a log-scale slider. */
export const LOG_SPAN = 100;
/** Slider positions (the range input's max). */
export const POSITIONS = 1000;

export const isLogControl = (c: Pick<RangeControl, 'min' | 'max'>): boolean =>
  c.min > 0 && c.max / c.min >= LOG_SPAN;

/** Where `value` sits on the slider, 0..POSITIONS. */
export function positionOf(c: Pick<RangeControl, 'min' | 'max'>, value: number): number {
  const v = Math.min(c.max, Math.max(c.min, value));
  return Math.round((POSITIONS * Math.log(v / c.min)) / Math.log(c.max / c.min));
}

/** The value at a slider position: on the control's step grid from its min, within min..max. */
export function valueAt(c: Pick<RangeControl, 'min' | 'max' | 'step'>, position: number): number {
  const p = Math.min(POSITIONS, Math.max(0, position));
  const raw = c.min * (c.max / c.min) ** (p / POSITIONS);
  const snapped = c.min + Math.round((raw - c.min) / c.step) * c.step;
  return Math.min(c.max, Math.max(c.min, snapped));
}
