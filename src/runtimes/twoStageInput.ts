// The two-stage input runtime (twoStage.ts): a serial scan cuts the text into spans, parallel
// readers parse them. Real threads hold the whole text in wasm memory, so a run of more records
// than the budget is simulated.
import { spanQueueCapacity } from '../sim/twoStageInput';
import { twoStageInputSimulation } from '../sim/simulation';
import { BUDGETS } from '../spec/limits';
import { simulated } from './engineRules';
import { twoStage } from './twoStage';

export const twoStageInputRuntime = twoStage('two-stage-input', {
  twin: twoStageInputSimulation,
  io: { parallelStage: 1, bufferPool: false },
  rule: (spec) =>
    spec.items > BUDGETS.inputRecords
      ? simulated(
          `${spec.items} records is more than the ${BUDGETS.inputRecords} whose text real threads hold in memory`,
        )
      : null,
  // What waits between the stages: the cut spans, as many as the C++ span queue holds.
  views: { linkCapacity: (spec) => spanQueueCapacity(spec.stages[1].threads) },
  quantities: [],
});
