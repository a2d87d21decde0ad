// A component's sweep offered to the presenter's keys while the component is mounted
// (stageSweeps.ts says why).
import { useEffect, useRef } from 'react';
import { useLesson } from './lessonContext';
import type { StageSweep } from './stageSweeps';

/** Offers what this component's Sweep button does (null: it has none now) to the presenter's
 * `s`; the button's own rule applies (a sweep already running is not started again). */
export function useStageSweep(sweep: StageSweep | null): void {
  const { stageSweeps } = useLesson();
  const latest = useRef(sweep);
  useEffect(() => {
    latest.current = sweep;
  });
  const offered = sweep !== null;
  useEffect(
    () => (offered ? stageSweeps.offer(() => latest.current?.()) : undefined),
    [stageSweeps, offered],
  );
}
