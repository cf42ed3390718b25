/** Parse a Go duration ("6h", "1h30m", "90s", "500ms", "72h") into milliseconds; undefined when invalid. */
export function parseGoDuration(text: string): number | undefined {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const pattern = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let match = pattern.exec(trimmed); match; match = pattern.exec(trimmed)) {
    total += Number(match[1]) * (units[match[2]!] ?? 0);
    matched = pattern.lastIndex;
  }
  return matched === trimmed.length && matched > 0 ? total : undefined;
}
