// Telemetry the twin emits: the event and counter types of src/telemetry (contracts/telemetry.md),
// reused as is. The twin emits records without `seq` (EventInput): the per-worker sequence number
// belongs to the ring that stores them (RingWriter.push takes exactly this shape).
import type { EventInput } from '../telemetry';

export { EVENT_KINDS, NO_ITEM, NO_STAGE } from '../telemetry';
export type { EventInput, EventKindName, StageCounters } from '../telemetry';

export type TelemetrySink = (event: EventInput) => void;

export { emptyStageCounters as emptyCounters } from '../telemetry';
