// Running a benchmark part in a fresh child process (its memory figures are its own), figures back over IPC.
import { fork } from 'node:child_process';
import type { BenchFigure } from './types.js';

export function figuresFromChild(script: URL, args: string[]): Promise<BenchFigure[]> {
  const child = fork(script, args, { stdio: 'inherit' });
  return new Promise<BenchFigure[]>((resolve, reject) => {
    let figures: BenchFigure[] | undefined;
    child.on('message', (message) => {
      figures = message as BenchFigure[];
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      figures ? resolve(figures) : reject(new Error(`${script.pathname} exited with code ${code} before reporting`)),
    );
  });
}
