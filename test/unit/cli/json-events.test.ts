// The --json event stream in one casing: runner events map to snake_case fields, a connection wait included.
import { describe, expect, it } from 'vitest';
import { jsonLineWriter, runnerEventToJson } from '../../../internal/cli/json-events.js';
import { createRedactor } from '../../../internal/store/index.js';

describe('runnerEventToJson', () => {
  it('writes a connection wait as wait_ms, not waitMs', () => {
    expect(runnerEventToJson({ type: 'connection', event: { type: 'rate-limited', waitMs: 1500 } })).toEqual({
      type: 'connection',
      kind: 'rate-limited',
      wait_ms: 1500,
    });
    expect(
      runnerEventToJson({ type: 'connection', event: { type: 'paced', waitMs: 200, reason: 'query_budget' } }),
    ).toEqual({ type: 'connection', kind: 'paced', reason: 'query_budget', wait_ms: 200 });
    expect(runnerEventToJson({ type: 'connection', event: { type: 'logged-in', username: 'nova' } })).toEqual({
      type: 'connection',
      kind: 'logged-in',
      username: 'nova',
    });
  });

  it('writes a turn end in snake_case', () => {
    const line = runnerEventToJson({
      type: 'turn-end',
      summary: {
        turn: 2,
        outcome: 'answered',
        rounds: 3,
        toolCalls: 4,
        failedToolCalls: 1,
        usage: { promptTokens: 100, completionTokens: 20, cachedTokens: 0, costUsd: 0.01 },
        errorsByCode: { not_docked: 1 },
        durationMs: 1200,
      },
    });
    expect(Object.keys(line ?? {}).filter((key) => !/^[a-z]+(_[a-z]+)*$/.test(key))).toEqual([]);
    expect(line).toMatchObject({ tool_calls: 4, failed_tool_calls: 1, prompt_tokens: 100, duration_ms: 1200 });
  });
});

describe('batched --json lines (a fleet)', () => {
  it('writes the lines of one turn of the event loop in one write, in order, redacted', async () => {
    const writes: string[] = [];
    const write = jsonLineWriter(
      { write: (text) => writes.push(text) > 0 },
      { redact: (text) => text.replaceAll('hunter22', '[redacted]'), batch: true },
    );
    write({ type: 'notice', text: 'one' });
    write({ type: 'notice', text: 'two hunter22' });
    expect(writes).toEqual([]);
    await new Promise((done) => setImmediate(done));
    expect(writes).toHaveLength(1);
    const lines = (writes[0] as string)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { text: string });
    expect(lines.map((line) => line.text)).toEqual(['one', 'two [redacted]']);
    write({ type: 'notice', text: 'three' });
    await new Promise((done) => setImmediate(done));
    expect(writes).toHaveLength(2);
  });
});

describe('--json lines and secrets', () => {
  const stamped = (line: string): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>;

  it('writes a line with no secret in it as the event itself, and redacts one that has one, field by field', () => {
    const lines: string[] = [];
    const write = jsonLineWriter(
      { write: (text) => lines.push(text) > 0 },
      { redact: createRedactor(['hunter2-secret']) },
    );
    const plain = { type: 'tool-result', text: 'Mined 5 ore.\n"quoted" \\ back', turn: 3, calls: [{ id: 'a' }] };
    write(plain);
    write({ type: 'tool-call', arguments: JSON.stringify({ password: 'hunter2-secret' }), note: 'hunter2-secret' });
    expect(lines).toHaveLength(2);
    const first = stamped(lines[0]!);
    expect(lines[0]).toBe(`${JSON.stringify({ ts: first.ts, ...plain })}\n`);
    expect(lines[1]).not.toContain('hunter2');
    expect(stamped(lines[1]!)).toMatchObject({ arguments: '{"password":"[redacted]"}', note: '[redacted]' });
  });

  it('never cuts across the line’s own quotes: a secret that only the line’s syntax spells leaves the line whole', () => {
    const lines: string[] = [];
    // `7,"nam` appears in the line's text between two fields, in no string of the event.
    const write = jsonLineWriter({ write: (text) => lines.push(text) > 0 }, { redact: createRedactor(['7,"nam']) });
    write({ type: 'turn-start', turn: 7, name: 'cap01' });
    const line = stamped(lines[0]!);
    expect(line).toEqual({ ts: line.ts, type: 'turn-start', turn: 7, name: 'cap01' });
  });
});
