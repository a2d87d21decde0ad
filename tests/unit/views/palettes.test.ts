// The palettes written out in src/views (to keep d3-scale-chromatic off the lesson pages' first
// load) are d3's own, colour for colour.
import { schemeDark2, schemeTableau10 } from 'd3';
import { describe, expect, it } from 'vitest';
import { TABLEAU10 } from '../../../src/views/stageColors';
import { DARK2 } from '../../../src/views/threadColors';

describe('palettes written out from d3', () => {
  it('TABLEAU10 is schemeTableau10', () => expect([...TABLEAU10]).toEqual([...schemeTableau10]));
  it('DARK2 is schemeDark2', () => expect([...DARK2]).toEqual([...schemeDark2]));
});
