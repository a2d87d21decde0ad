// ::experiment — the lesson's experiment panel, wired to the lesson's controls and run.
import { ExperimentPanel } from '../ExperimentPanel';
import { useLesson } from '../lessonContext';

export function ExperimentBlock() {
  const { lesson, values, change, spec, specError, engine, run } = useLesson();
  return (
    <ExperimentPanel
      controls={lesson.controls}
      values={values}
      onChange={change}
      spec={spec}
      specError={specError}
      engine={engine}
      run={run.view}
      models={lesson.models}
      onRun={() => spec && engine && run.start(spec, engine.engine)}
      onPause={run.pause}
      onResume={run.resume}
      onStop={run.stop}
    />
  );
}
