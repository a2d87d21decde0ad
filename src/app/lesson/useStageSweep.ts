// A component's sweep offered to the presenter's keys while the component is mounted
// (stageSweeps.ts says why).
import { useEffect, useRef } from 'react';
import { useLesson } from './lessonContext';
import type { StageSweep } from './stageSweeps';

/** Offers this component's sweep (null: it has none now) to the presenter's keys. */
export function useStageSweep(sweep: StageSweep | null): void {
  const { stageSweeps } = useLesson();
  const latest = useRef(sweep);
  useEffect(() => {
    latest.current = sweep;
  });
  const offered = sweep !== null;
  useEffect(
    () =>
      offered
        ? stageSweeps.offer({
            start: () => latest.current?.start(),
            cancel: () => latest.current?.cancel(),
          })
        : undefined,
    [stageSweeps, offered],
  );
}
