// Marks the box of every chart (an `svg[role=img]`) that is wider than its box with
// `data-scrolls`, so the stylesheet's "swipe sideways for the rest of the chart" line shows only
// where the chart really scrolls. A media query alone put it under charts that fit: a 900 px chart
// on a 960 px page, a queue view that shrinks to a phone, every chart of the presenter's scaled
// stage. Charts are found as they mount (a MutationObserver), an svg that replaces another in the
// same box included, and their boxes re-checked when a box or a chart changes size (a
// ResizeObserver). Boxes and charts that leave the page are let go, so a long session keeps no
// detached chart alive.

const CHART = 'svg[role="img"]';

/** Starts watching `root`; returns a function that stops. */
export function watchChartOverflow(root: HTMLElement): () => void {
  const watched = new Set<Element>(); // boxes and charts
  const due = new Set<Element>(); // boxes to check at the next frame
  let frame = 0;
  // Checked at the next frame, not inside the ResizeObserver's callback: the line the flag shows
  // changes the box's height there, which Chromium reports as a ResizeObserver loop error.
  const checkSoon = (box: Element) => {
    due.add(box);
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      for (const b of due)
        if (b.isConnected) b.toggleAttribute('data-scrolls', b.scrollWidth > b.clientWidth + 1);
      due.clear();
    });
  };
  const sizes = new ResizeObserver((entries) => {
    for (const e of entries) {
      const box = e.target.matches(CHART) ? e.target.parentElement : e.target;
      if (box) checkSoon(box);
    }
  });
  const watch = (el: Element) => {
    if (watched.has(el)) return;
    watched.add(el);
    sizes.observe(el);
  };
  const add = (svg: Element) => {
    const box = svg.parentElement;
    if (!box) return;
    watch(box);
    watch(svg);
    checkSoon(box); // a new chart in a box already watched may change what the box holds
  };
  // A leaf (most of what a 30 Hz redraw adds and removes: bars, dots, labels) is no chart and
  // holds none: it needs no look.
  const mayHoldChart = (node: Node): node is Element =>
    node instanceof Element && (node.firstElementChild !== null || node.matches(CHART));
  const scan = (node: Node) => {
    if (!mayHoldChart(node)) return;
    if (node.matches(CHART)) add(node);
    else node.querySelectorAll(CHART).forEach(add);
  };
  const mutations = new MutationObserver((records) => {
    let removed = false;
    for (const r of records) {
      r.addedNodes.forEach(scan);
      // Only a removed element that may hold a chart can take a watched box or chart away.
      removed ||= [...r.removedNodes].some(mayHoldChart);
    }
    if (removed)
      for (const el of watched)
        if (!el.isConnected) {
          watched.delete(el);
          sizes.unobserve(el);
        }
  });
  mutations.observe(root, { childList: true, subtree: true });
  scan(root);
  return () => {
    mutations.disconnect();
    sizes.disconnect();
    cancelAnimationFrame(frame);
    watched.clear();
    due.clear();
  };
}
