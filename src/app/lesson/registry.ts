// The lesson-component registry: each `::name` a lesson's prose may place (src/lessons/components.ts)
// and the component that draws it. A new component is one entry here and one file in components/;
// the Record type makes the registry cover exactly the names the lesson format accepts.
import type { ComponentType } from 'react';
import type { ComponentName } from '../../lessons/components';
import { ExperimentBlock } from './components/ExperimentBlock';
import { ModelChartBlock } from './components/ModelChartBlock';
import { PaperBlock } from './components/PaperBlock';
import { PipelineBlock } from './components/PipelineBlock';
import { StealsBlock } from './components/StealsBlock';
import { TimelineBlock } from './components/TimelineBlock';

export const LESSON_COMPONENTS: Record<ComponentName, ComponentType> = {
  experiment: ExperimentBlock,
  pipeline: PipelineBlock,
  timeline: TimelineBlock,
  steals: StealsBlock,
  'model-chart': ModelChartBlock,
  paper: PaperBlock,
};
