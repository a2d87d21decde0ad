// One run planner per page (a lesson, the presenter's window, an experiment), on the page's own
// engines: leaving the page stops its plan and ends the engines' workers and threads.
import { useEffect, useState } from 'react';
import { PageEngines } from '../../engine/planner/pageEngines';
import { RunPlanner } from '../../engine/planner/steps';

export function usePagePlanner(): { planner: RunPlanner; engines: PageEngines } {
  const [page] = useState(() => {
    const engines = new PageEngines();
    return { engines, planner: new RunPlanner(engines) };
  });
  useEffect(() => {
    page.planner.open();
    return () => {
      page.planner.close();
      page.engines.dispose();
    };
  }, [page]);
  return page;
}
