// Types for scripts/test.js (read by test/docs/test-command.test.ts).
export interface Step {
  name: string;
  command: string;
  args: string[];
  live?: boolean;
}
export interface Outcome {
  name: string;
  live: boolean;
  code: number;
  signal: NodeJS.Signals | null;
  output: string;
  ms: number;
  skipped: boolean;
}
export declare function runLanes(lanes: Step[][], out?: { write(text: string): unknown }): Promise<Outcome[]>;
export declare function passed(outcome: Outcome): boolean;
