import { describe, expect, it } from 'vitest';
import { createChalk } from '../../../internal/cli/render.js';
import { formatStatusLine, thinkingLabel } from '../../../internal/cli/status.js';
import { attachTranscript } from '../../../internal/cli/watchers.js';
import type { Output } from '../../../internal/cli/output.js';
import type { SessionRunner } from '../../../internal/session/index.js';

const chalk = createChalk(false);
const usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 };

describe('thinkingLabel', () => {
  it('spins with the elapsed time and shows the tail of the reasoning', () => {
    expect(thinkingLabel({ since: 1000, reasoning: '' }, 3400, chalk)).toMatch(/^. thinking 2\.4s$/);
    const long = `${'first thoughts '.repeat(10)}then sell the ore at Sol`;
    const label = thinkingLabel({ since: 0, reasoning: long }, 100, chalk);
    expect(label).toContain('⋯ …');
    expect(label.endsWith('then sell the ore at Sol')).toBe(true);
    expect(label.length).toBeLessThan(80);
    // The frame moves with time.
    expect(thinkingLabel({ since: 0, reasoning: '' }, 0, chalk)[0]).not.toBe(
      thinkingLabel({ since: 0, reasoning: '' }, 100, chalk)[0],
    );
  });

  it('takes the busy mark’s place on the status line', () => {
    const line = formatStatusLine({
      state: undefined,
      usage,
      chalk,
      busy: '⟳',
      thinking: { since: 0, reasoning: 'hmm' },
      now: 1500,
    });
    expect(line).toMatch(/^. thinking 1\.5s ⋯ hmm · /);
    expect(line).not.toContain('⟳');
  });
});

describe('the status line while the model is asked', () => {
  it('shows thinking from round-start until the text streams, with streamed reasoning, and stops after', () => {
    const listeners: ((event: any) => void)[] = [];
    let busy = true;
    const runner = {
      on: (listener: (event: any) => void) => listeners.push(listener),
      state: undefined,
      usage,
      get busy() {
        return busy;
      },
    } as unknown as SessionRunner;
    const statuses: string[] = [];
    const output: Output = {
      color: false,
      interactive: true,
      line: () => {},
      write: () => {},
      status: (text) => statuses.push(text),
      clearStatus: () => {},
      error: () => {},
      aside: () => {},
    };
    attachTranscript({ runner, game: { onEvent: () => () => {} }, output, chalk, color: false });
    const emit = (event: unknown): void => listeners.forEach((listener) => listener(event));
    emit({ type: 'round-start', round: 1 });
    expect(statuses.at(-1)).toMatch(/thinking 0\.\ds/);
    emit({ type: 'delta', delta: { type: 'reasoning', text: 'the belt is rich' } });
    expect(statuses.at(-1)).toContain('⋯ the belt is rich');
    emit({ type: 'delta', delta: { type: 'text', text: 'Mining.' } });
    expect(statuses.at(-1)).not.toContain('thinking');
    emit({ type: 'round-start', round: 2 });
    expect(statuses.at(-1)).toContain('thinking');
    emit({ type: 'turn-end', summary: { outcome: 'answered', rounds: 2 } });
    expect(statuses.at(-1)).not.toContain('thinking');
    busy = false;
  });
});
