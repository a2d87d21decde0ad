// The start page, a course's landing page: what this browser can do here, then the lessons in order
// (from lessons/*.md), each with its one-line summary and a preview taken from the real page
// (scripts/screenshots.mjs), then the warm-up.
import lessons from 'virtual:lessons';
import { canUseThreads, threadsUnavailableReason, visitorCores } from '../engine/isolation';
import { threadsLimit } from '../engine/pipeline/threadsLimit';
import { Term } from './glossary/Term';
import { shellHref } from './route';

/** Where scripts/screenshots.mjs writes each page's preview (relative to the site). */
export const previewUrl = (name: string) => `./previews/${name}.jpg`;

export function Home({ errors }: { errors: string[] }) {
  return (
    <main className="page">
      <h1>PipeLab</h1>
      <p className="lead">
        Interactive lessons on pipeline parallelism. Every animation is driven by real C++ running
        on real threads in your browser (WebAssembly + pthreads), drawn next to the queueing models
        that predict it.
      </p>
      {errors.map((e) => (
        <p key={e} role="alert" className="notice error">
          {e}
        </p>
      ))}
      <Capabilities />
      <ol className="lesson-cards">
        {/* The warm-up first: it is the shortest way to real threads, before lesson 1. */}
        <LessonCard
          href={shellHref('/threads')}
          preview={previewUrl('counting-threads')}
          title="Warm-up: counting threads"
          summary="Start real threads on your cores, watch them count, and see what happens when their counters share one cache line."
        />
        {lessons.map((l) => (
          <LessonCard
            key={l.slug}
            href={shellHref(`/lessons/${l.slug}`)}
            preview={previewUrl(`lesson-${l.slug}`)}
            title={`${l.number}. ${l.title}`}
            summary={l.summary}
          />
        ))}
      </ol>
      <p>
        <a href={shellHref('/papers')}>What the papers found, and what we find</a> — every source
        paper&apos;s headline results beside the <Term id="twin">twin</Term> at the paper&apos;s
        scale and your own measurements. Each lesson also runs as a talk: open it and press{' '}
        <kbd>p</kbd> for presenter mode.
      </p>
    </main>
  );
}

/** One line on what runs here and why: real threads, or the labelled twin. */
function Capabilities() {
  const cores = visitorCores();
  const threads = canUseThreads();
  return (
    <p
      className={`notice capabilities ${threads ? 'threads' : 'simulation'}`}
      data-testid="capabilities"
    >
      {threads
        ? `This browser: cross-origin isolated, ${cores} cores — lessons run on real threads (a run that needs more than ${threadsLimit(cores)} threads runs on the simulation, and says so).`
        : `This browser: ${threadsUnavailableReason()} Lessons run on the discrete-event twin instead, labelled "simulated"; ${cores} cores reported.`}
    </p>
  );
}

function LessonCard(p: { href: string; preview: string; title: string; summary: string }) {
  return (
    <li className="lesson-card">
      <a href={p.href}>
        <img src={p.preview} alt="" width={320} height={200} loading="lazy" />
        <span className="lesson-title">{p.title}</span>
      </a>
      <span className="lesson-summary">{p.summary}</span>
    </li>
  );
}
