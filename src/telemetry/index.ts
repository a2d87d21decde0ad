// Telemetry decoding for the page and the simulation twin: layout constants, ring reader and
// writer, stage counters (contracts/telemetry.md). No React, no DOM.
export * from './layout';
export { decodeEvent, readRing, readStageCounters, type RingRead } from './decode';
export { RingWriter, encodeStageCounters, type EventInput } from './encode';
export { copyTap, readTap, type TapFrame, type TelemetryTap } from './tap';
export { createTapWriter, type TapWriter } from './tapWriter';
export * from './phaserBoard';
