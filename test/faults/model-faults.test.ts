// Fault group 3 — the model misbehaves. Each variant once: a scripted captain on the strict fake OpenAI server plays
// two autoplay turns of embedded minimolt, and the second request of turn 1 (after a tool call and its result are
// stored) gets the fault. The session must survive: the turn is retried (or fails cleanly), turn 2 is answered, the
// process exits 0, the server accepts every transcript it is sent and the store holds no dangling tool call.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeFault } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';
import { captain, checkStore, exitWithin, jsonEvents } from './harness.js';

const homes: string[] = [];
afterAll(() => homes.forEach(removeHome));

const LONG_REPLY = {
  content: 'Reading the system first, then I will decide where to mine next; the belt looked rich last time I passed.',
  toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_system' } }],
  chunkSize: 8,
};

interface Variant {
  name: string;
  fault: FakeFault;
  /** Retryable before any output: turn 1 must still be answered. Otherwise it may also fail cleanly. */
  retried: boolean;
  /** The least gap between the fault and the retry (Retry-After). */
  minGapMs?: number;
  config?: Record<string, unknown>;
}

const VARIANTS: Variant[] = [
  {
    name: '429 with Retry-After',
    fault: { fault: 'status', status: 429, retryAfter: 1 },
    retried: true,
    minGapMs: 900,
  },
  { name: 'HTTP 500', fault: { fault: 'status', status: 500 }, retried: true },
  { name: 'HTTP 502', fault: { fault: 'status', status: 502 }, retried: true },
  { name: 'HTTP 503', fault: { fault: 'status', status: 503 }, retried: true },
  { name: 'connection reset', fault: { fault: 'reset' }, retried: true },
  {
    name: 'cut stream (mid tool call)',
    fault: { fault: 'cut-stream', afterChunks: 4, reply: LONG_REPLY },
    retried: false,
  },
  { name: 'malformed JSON', fault: { fault: 'malformed-json' }, retried: false },
  {
    name: 'stall after first chunk',
    fault: { fault: 'stall', afterChunks: 1, reply: LONG_REPLY },
    retried: false,
    // Another engineer is adding this key; without it the stall waits for undici's 300 s body timeout.
    config: { streamIdleTimeoutMs: 300 },
  },
  {
    name: 'no [DONE] (stream ends after the reply)',
    fault: { fault: 'cut-stream', afterChunks: 1_000, mode: 'end', reply: { content: 'Holding position.' } },
    retried: false,
  },
  {
    name: 'no [DONE] (stream ends mid-reply)',
    fault: { fault: 'cut-stream', afterChunks: 3, mode: 'end', reply: LONG_REPLY },
    retried: false,
  },
  {
    name: 'error object inside the stream',
    fault: { fault: 'stream-error', error: { message: 'upstream overloaded', code: 'server_error' } },
    retried: false,
  },
];

/** Per case: the fault plus CLI start, two turns and the handoff; the stall case is bounded here too. */
const CASE_MS = 25_000;

describe('faults: model faults', () => {
  it.for(VARIANTS)('$name', async (variant, { task }) => {
    task.meta.faultGroup = 'model faults';
    const home = makeHome();
    homes.push(home);
    if (variant.config) writeFileSync(join(home, 'config.json'), JSON.stringify(variant.config));
    let faultAt = -1;
    const step = (request: Parameters<typeof captain>[0], index: number): ReturnType<typeof captain> | FakeFault => {
      if (index === 1) {
        faultAt = request.receivedAt;
        return variant.fault;
      }
      return captain(request);
    };
    const model = await startFakeOpenAI({ script: Array.from({ length: 40 }, () => step) });
    try {
      const cli = runCli(
        [
          '--model',
          'custom/fault-captain',
          '--base-url',
          model.url,
          '--autoplay',
          '--max-turns',
          '2',
          '--tick-ms',
          '0',
          '--json',
        ],
        { home },
      );
      const exit = await exitWithin(cli, CASE_MS);
      const events = jsonEvents(cli);
      // Autoplay turns only: the end-of-session handoff is a turn of its own.
      const autoplayTurns = new Set(
        events.filter((event) => event.type === 'turn-start' && event.kind === 'autoplay').map((event) => event.turn),
      );
      const turns = events.filter((event) => event.type === 'turn-end' && autoplayTurns.has(event.turn));
      const why = (): string => {
        if (!exit)
          return `the session did not finish within ${CASE_MS / 1000} s (turns ended: ${turns.map((turn) => turn.outcome).join(', ') || 'none'})`;
        if (exit.code !== 0) return `exit ${exit.code}: ${cli.stderr().trim().split('\n').slice(-2).join(' ')}`;
        if (model.invalid.length > 0) return `the strict server rejected a transcript: ${model.invalid[0]}`;
        return `turn outcomes ${turns.map((turn) => `${turn.outcome}${turn.error ? ` (${String(turn.error)})` : ''}`).join(', ')}`;
      };
      task.meta.faultCause = why();
      expect(exit, why()).toBeDefined();
      expect(exit?.code, why()).toBe(0);
      expect(model.invalid).toEqual([]);
      expect(model.exhausted).toBe(false);
      expect(faultAt, 'the fault was served').toBeGreaterThan(0);
      expect(turns.map((turn) => turn.turn)).toEqual([1, 2]);
      expect(variant.retried ? ['answered'] : ['answered', 'failed'], why()).toContain(turns[0]!.outcome);
      expect(turns[1]!.outcome, why()).toBe('answered');
      if (variant.minGapMs !== undefined) {
        // Request #2 is the retry of the faulted request #1.
        expect(model.chatRequests[2]!.receivedAt - faultAt, 'Retry-After honoured').toBeGreaterThanOrEqual(
          variant.minGapMs,
        );
      }
      expect(checkStore(home).dangling, 'dangling tool calls in the store').toEqual([]);
      delete task.meta.faultCause;
    } finally {
      await model.close();
    }
  });
});
