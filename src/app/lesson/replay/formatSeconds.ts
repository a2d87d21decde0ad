// Run time in seconds for the replay's labels: three decimals (ms) under a minute, else m:ss.s.

export function formatSeconds(us: number): string {
  const s = Math.max(0, us) / 1e6;
  if (s < 60) return `${s.toFixed(3)} s`;
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, '0')} min`;
}
