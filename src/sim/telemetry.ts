// Telemetry the twin emits: the event and counter types of src/telemetry (FORMAT.md), reused as is.
import type { EventInput } from '../telemetry';

export { EVENT_KINDS, NO_ITEM, NO_STAGE } from '../telemetry';
export type { EventKindName, StageCounters } from '../telemetry';

/** One record without `seq`: the per-worker sequence number belongs to the ring that stores it
 * (RingWriter.push takes exactly this shape). */
export type TelemetryEvent = EventInput;

export type TelemetrySink = (event: TelemetryEvent) => void;

export { emptyStageCounters as emptyCounters } from '../telemetry';
