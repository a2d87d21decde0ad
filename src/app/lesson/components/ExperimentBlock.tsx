// ::experiment — the lesson's experiment panel, wired to the lesson's controls and run, with
// recording and replay under it.
import { originLabel, replayKind } from '../../../replay/recording';
import { changesExperiment } from '../../../lessons/controls';
import { ExperimentPanel } from '../ExperimentPanel';
import { useLesson } from '../lessonContext';
import { RecordPanel } from '../replay/RecordPanel';

export function ExperimentBlock() {
  const { lesson, values, change, spec, specError, engine, run, replay, ranAtControls } =
    useLesson();
  const replayed = replay.active?.recording;
  return (
    <>
      <ExperimentPanel
        controls={lesson.controls.filter(changesExperiment)}
        values={values}
        onChange={change}
        spec={spec}
        specError={specError}
        engine={engine}
        run={run.view}
        ranAtControls={ranAtControls}
        models={lesson.models}
        onRun={() => spec && engine && run.start(spec, engine.engine)}
        onPause={run.pause}
        onResume={run.resume}
        onStop={run.stop}
        replay={replayed && { kind: replayKind(replayed.engine), origin: originLabel(replayed) }}
      />
      <RecordPanel />
    </>
  );
}
