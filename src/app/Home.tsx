// The start page: what PipeLab is and where to begin; the lessons come from lessons/*.md.
import lessons from 'virtual:lessons';
export function Home() {
  return (
    <main className="page">
      <h1>PipeLab</h1>
      <p className="lead">
        Interactive lessons on pipeline parallelism. Every animation is driven by real C++ running
        on real threads in your browser (WebAssembly + pthreads), drawn next to the queueing models
        that predict it.
      </p>
      <ul className="lesson-list">
        {lessons.map((l) => (
          <li key={l.slug}>
            <a href={`#/lessons/${l.slug}`}>
              {l.number}. {l.title}
            </a>{' '}
            — {l.summary}
          </li>
        ))}
        <li>
          <a href="#/threads">Warm-up: counting threads</a> — start real threads on your cores,
          watch them count, and see what happens when their counters share one cache line.
        </li>
      </ul>
    </main>
  );
}
