// One measured figure of a benchmark, printed next to its target.
export interface BenchFigure {
  /** Which part: sim, loop, store, memory, autopilot, soak, tools, cpu, planner, tokens. */
  part: string;
  name: string;
  value: number;
  unit: string;
  /** The goal, when the issue sets one. */
  target?: number;
  /** Whether a lower or a higher value is better (decides the ratio and the verdict). */
  better: 'lower' | 'higher';
  note?: string;
  /** Not measured on this run, and why (what to set to measure it): printed as skipped, neither met nor missed. */
  skipped?: string;
}

export type BenchPart = () => Promise<BenchFigure[]>;
