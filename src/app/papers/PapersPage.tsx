// #/papers: every seed paper's headline results, gathered from the lessons' paper rows — the
// paper's figure, ours from the twin (at the paper's scale or the lesson's, as the row says), ours
// measured here (this browser session, once a lesson measured it), each row's verdict (agrees,
// differs, fitted, bound) and the lesson that shows it.
import type { Lesson } from '../../lessons/loadLessons';
import { PAPERS, type PaperId } from '../../lessons/paper';
import { VERDICTS } from '../../lessons/paperVerdict';
import { PaperTable } from '../../views/PaperTable';
import { Term } from '../glossary/Term';
import { measuredOf } from '../measuredStore';

/** What each verdict means, in the words the page's legend uses. */
const VERDICT_MEANING = {
  agrees:
    'ours lies within the stated tolerance of the paper’s figure, checked when the site is built',
  differs: 'ours does not, and the row says why',
  fitted: 'one of our parameters was set from that very figure, so the match is no test',
  bound: 'the paper states only a direction, and ours lies on its side',
} as const;

/** `lessons`: every lesson, loaded by the route (pages.tsx). */
export function PapersPage({ errors, lessons }: { errors: string[]; lessons: Lesson[] }) {
  const ids = Object.keys(PAPERS) as PaperId[];
  const all = lessons.flatMap((l) => l.paper);
  const count = (v: string) => all.filter((r) => r.verdict.verdict === v).length;
  return (
    <main className="page papers" data-testid="papers-page">
      <h1>What the papers found, and what we find</h1>
      <p className="lead">
        Each row is a result of one of the five source papers, beside ours: the discrete-event{' '}
        <Term id="twin">twin</Term> (simulated) or the model, run at the paper&apos;s settings where
        the row says &ldquo;at the paper&apos;s scale&rdquo; and at the lesson&apos;s own where it
        says &ldquo;at the lesson&apos;s scale&rdquo;, and your own threads at your scale (measured)
        once you have run that lesson in this browser session. Follow a row&apos;s lesson to see and
        rerun it.
      </p>
      <dl className="verdict-legend" data-testid="verdict-legend">
        {VERDICTS.map((v) => (
          <div key={v} data-verdict={v}>
            <dt>
              {v} ({count(v)} of {all.length})
            </dt>
            <dd>{VERDICT_MEANING[v]}</dd>
          </div>
        ))}
      </dl>
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
