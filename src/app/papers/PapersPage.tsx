// #/papers: every seed paper's headline results, gathered from the lessons' paper rows — the
// paper's figure, ours from the twin at the paper's scale, ours measured here (this browser
// session, once a lesson measured it), and the lesson that shows it.
import lessons from 'virtual:lessons';
import { PAPERS, type PaperId } from '../../lessons/paper';
import { PaperTable } from '../../views/PaperTable';
import { measuredOf } from '../measuredStore';

export function PapersPage({ errors }: { errors: string[] }) {
  const ids = Object.keys(PAPERS) as PaperId[];
  return (
    <main className="page papers" data-testid="papers-page">
      <h1>What the papers found, and what we find</h1>
      <p className="lead">
        Each row is a result of one of the five source papers, beside ours: the discrete-event twin
        run at the paper&apos;s scale (simulated), and your own threads at your scale (measured)
        once you have run that lesson in this browser session. Follow a row&apos;s lesson to see and
        rerun it.
      </p>
      {errors.map((e) => (
        <p key={e} role="alert" className="notice error">
          {e}
        </p>
      ))}
      {ids.map((id) => {
        const rows = lessons.flatMap((l) =>
          l.paper
            .filter((r) => r.source === id)
            .map((r) => ({
              ...r,
              id: `${l.slug}/${r.id}`,
              paper: PAPERS[id].short,
              paperTitle: PAPERS[id].title,
              lesson: { href: `#/lessons/${l.slug}`, title: `${l.number}. ${l.title}` },
            })),
        );
        const measured = Object.fromEntries(
          lessons.flatMap((l) =>
            Object.entries(measuredOf(l.slug)).map(([row, v]) => [`${l.slug}/${row}`, v]),
          ),
        );
        return (
          <section key={id} data-paper={id}>
            <h2>
              {PAPERS[id].short}: <em>{PAPERS[id].title}</em>
            </h2>
            {rows.length ? (
              <PaperTable rows={rows} measured={measured} />
            ) : (
              <p className="hint">No lesson reproduces a result of this paper yet.</p>
            )}
          </section>
        );
      })}
    </main>
  );
}
