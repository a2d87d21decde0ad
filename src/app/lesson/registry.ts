// The lesson-component registry: each `::name` a lesson's prose may place (src/lessons/components.ts)
// and the component that draws it. A new component is one entry here and one file in components/;
// the Record type makes the registry cover exactly the names the lesson format accepts.
import type { ComponentType } from 'react';
import type { ComponentName } from '../../lessons/components';
import { CacheLineBlock } from './components/CacheLineBlock';
import { CommModelBlock } from './components/CommModelBlock';
import { ExperimentBlock } from './components/ExperimentBlock';
import { MeasureBlock } from '../measure/MeasureBlock';
import { FalseSharingBlock } from './components/FalseSharingBlock';
import { LayoutChartBlock } from './components/LayoutChartBlock';
import { OversubscriptionBlock } from './components/OversubscriptionBlock';
import { SizingBlock } from './components/SizingBlock';
import { StageBreakdownBlock } from './components/StageBreakdownBlock';
import { ModelChartBlock } from './components/ModelChartBlock';
import { PackingChartBlock } from './components/PackingChartBlock';
import { PackingCompareBlock } from './components/PackingCompareBlock';
import { PackingGridBlock } from './components/PackingGridBlock';
import { PaperBlock } from './components/PaperBlock';
import { PipelineBlock } from './components/PipelineBlock';
import { QueueRaceBlock } from './components/QueueRaceBlock';
import { SemiBufferBlock } from './components/SemiBufferBlock';
import { ReorderBlock } from './components/ReorderBlock';
import { StealsBlock } from './components/StealsBlock';
import { StreamGraphBlock } from './components/StreamGraphBlock';
import { TaskTimelineBlock } from './components/TaskTimelineBlock';
import { TimelineBlock } from './components/TimelineBlock';
import { WasmFencesBlock } from './components/WasmFencesBlock';

export const LESSON_COMPONENTS: Record<ComponentName, ComponentType> = {
  experiment: ExperimentBlock,
  pipeline: PipelineBlock,
  timeline: TimelineBlock,
  steals: StealsBlock,
  'model-chart': ModelChartBlock,
  paper: PaperBlock,
  measure: MeasureBlock,
  'queue-race': QueueRaceBlock,
  'wasm-fences': WasmFencesBlock,
  'cacheline-view': CacheLineBlock,
  'false-sharing': FalseSharingBlock,
  'comm-model': CommModelBlock,
  'semi-latency': SemiBufferBlock,
  reorder: ReorderBlock,
  'packing-grid': PackingGridBlock,
  'packing-compare': PackingCompareBlock,
  'packing-chart': PackingChartBlock,
  'stream-graph': StreamGraphBlock,
  'task-timeline': TaskTimelineBlock,
  'stage-breakdown': StageBreakdownBlock,
  'layout-chart': LayoutChartBlock,
  oversubscription: OversubscriptionBlock,
  sizing: SizingBlock,
};
