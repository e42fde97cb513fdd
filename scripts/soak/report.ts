// docs/reliability.md from a soak result (filled in below).
import type { SoakResult } from './run';

export function renderReport(r: SoakResult): string {
  return `# Reliability\n\n${JSON.stringify(r.figures.headline, null, 2)}\n`;
}
