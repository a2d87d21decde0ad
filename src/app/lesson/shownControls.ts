// Which of a controls panel's controls to show: all of them (null, the lesson page), or on a
// presenter's slide the ones its step needs (src/app/present/steps.ts, stageControls) and the
// panel's first, the lesson's main knob. A context, so the lesson's experiment block stays the
// same component on both pages.
import { createContext } from 'react';

export const ShownControls = createContext<ReadonlySet<string> | null>(null);
