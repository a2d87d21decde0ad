// Values a lesson measured on the visitor's threads for its paper rows, kept for the browser
// session so the papers page (#/papers) can show them beside every paper's figures.

const KEY = 'pipelab:measured';

type Store = Record<string, Record<string, number>>;

function read(): Store {
  try {
    const raw = sessionStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Store) : {};
  } catch {
    // Storage can be unavailable (a sandboxed iframe, privacy settings): nothing is kept then.
    return {};
  }
}

export function rememberMeasured(slug: string, rowId: string, value: number): void {
  if (!Number.isFinite(value)) return;
  const store = read();
  store[slug] = { ...store[slug], [rowId]: value };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(store));
  } catch {
    // See read().
  }
}

/** The measured values of one lesson, by row id. */
export function measuredOf(slug: string): Record<string, number> {
  const values = read()[slug] ?? {};
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => typeof v === 'number' && Number.isFinite(v)),
  );
}
