// Sizes the lesson components share.

/** Wide enough for six stage boxes and the model chart's legend. */
export const CHART_WIDTH_PX = 900;
