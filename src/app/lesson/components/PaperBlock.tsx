// ::paper — what the source paper measured beside ours: the lesson's paper rows with the twin at
// the paper's scale (computed when the lesson was built) and, once the lesson's views measured it
// on the visitor's threads, the measured value.
import { PAPERS } from '../../../lessons/paper';
import { PaperTable } from '../../../views/PaperTable';
import { useLesson } from '../lessonContext';

export function PaperBlock() {
  const { lesson, measured } = useLesson();
  const rows = lesson.paper.map((r) => ({
    ...r,
    paper: PAPERS[r.source].short,
    paperTitle: PAPERS[r.source].title,
  }));
  return <PaperTable rows={rows} measured={measured} />;
}
