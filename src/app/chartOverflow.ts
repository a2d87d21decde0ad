// Marks the box of every chart (an `svg[role=img]`) that is wider than its box with
// `data-scrolls`, so the stylesheet's "swipe sideways for the rest of the chart" line shows only
// where the chart really scrolls. A media query alone put it under charts that fit: a 900 px chart
// on a 960 px page, a queue view that shrinks to a phone, every chart of the presenter's scaled
// stage. Boxes are found as charts mount (a MutationObserver) and re-checked when the box or the
// chart changes size (a ResizeObserver); boxes that leave the page are let go, so a long session
// keeps no detached chart alive.

const CHART = 'svg[role="img"]';

/** Starts watching `root`; returns a function that stops. */
export function watchChartOverflow(root: HTMLElement): () => void {
  const boxes = new Set<Element>();
  const check = (box: Element) =>
    box.toggleAttribute('data-scrolls', box.scrollWidth > box.clientWidth + 1);
  const sizes = new ResizeObserver((entries) => {
    for (const e of entries) {
      const box = e.target.matches(CHART) ? e.target.parentElement : e.target;
      if (box) check(box);
    }
  });
  const add = (svg: Element) => {
    const box = svg.parentElement;
    if (!box || boxes.has(box)) return;
    boxes.add(box);
    sizes.observe(box);
    sizes.observe(svg);
  };
  const scan = (node: Node) => {
    if (!(node instanceof Element)) return;
    if (node.matches(CHART)) add(node);
    // A leaf (most of what a redraw adds: bars, dots, labels) has nothing under it to look for.
    else if (node.firstElementChild) node.querySelectorAll(CHART).forEach(add);
  };
  const mutations = new MutationObserver((records) => {
    let removed = false;
    for (const r of records) {
      r.addedNodes.forEach(scan);
      removed ||= r.removedNodes.length > 0;
    }
    if (removed)
      for (const box of boxes)
        if (!box.isConnected) {
          boxes.delete(box);
          sizes.unobserve(box);
          const svg = box.querySelector(`:scope > ${CHART}`);
          if (svg) sizes.unobserve(svg);
        }
  });
  mutations.observe(root, { childList: true, subtree: true });
  scan(root);
  return () => {
    mutations.disconnect();
    sizes.disconnect();
    boxes.clear();
  };
}
