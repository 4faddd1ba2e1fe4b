// The last line every bench:* script prints: one row to paste into its table in
// docs/benchmarks.md. The date and the machine's load are what make a figure comparable later
// (these 2-core machines are shared, and the same pass can take half again as long under load).
import { availableParallelism, loadavg } from "node:os";

/** `| figure | value | target | YYYY-MM-DD | 1-minute loadavg / cores |`, the columns of docs/benchmarks.md. */
export function tableRow(figure: string, value: string, target: string): string {
  const date = new Date().toISOString().slice(0, 10);
  const load = `${loadavg()[0]!.toFixed(2)} / ${availableParallelism()}`;
  return `| ${figure} | ${value} | ${target} | ${date} | ${load} |`;
}
