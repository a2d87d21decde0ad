// Setup of every unit test file (vitest.config.ts), for the page tests in happy-dom: KaTeX checks
// when it is imported that the page is not in quirks mode (the app's index.html has a doctype),
// and happy-dom has no document.compatMode. Nothing in the node environment.
if (typeof document !== 'undefined')
  Object.defineProperty(document, 'compatMode', { value: 'CSS1Compat', configurable: true });
