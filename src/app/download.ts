// Hands the visitor a file made in the page (a recording, a trace, a CSV, a chart image) as a
// download, and names exported files after the lesson, what they hold and when.

export function download(fileName: string, data: string | Blob, type: string): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the file by the time the click handler returns; a later revoke is safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `pipelab-pipelines-and-bubbles-measured-2025-01-14T10-32.json` */
export function exportName(parts: Array<string | null | undefined>, isoDate: string, ext: string) {
  const stamp = isoDate.slice(0, 16).replace(':', '-');
  return `${['pipelab', ...parts.filter(Boolean), stamp].join('-')}.${ext}`;
}
