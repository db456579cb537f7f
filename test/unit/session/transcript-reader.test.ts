// TranscriptReader: the bridge's kept scan of a session's transcript. Read again, it reads only the messages stored
// since — and finds what one pass over the whole transcript finds, also when a message was stored out of turn order.
import { describe, expect, it } from 'vitest';
import { scanTranscript, TranscriptReader, type FiguresStore } from '../../../internal/session/index.js';
import { openStore, type AppendableMessage, type Store } from '../../../internal/store/index.js';
import { tempDbPath } from '../store/helpers.js';

/** One call and its answer; `error`: answered as a refusal with that code. */
function exchange(turn: number, error?: string): AppendableMessage[] {
  const id = `call-${turn}-${Math.random().toString(36).slice(2)}`;
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'mine', arguments: '{}' }], turn },
    {
      role: 'tool',
      content: error ? `Error: ${error}: not now` : 'mined 3 ore',
      toolCallId: id,
      toolName: 'mine',
      ...(error ? { isError: true } : {}),
      turn,
    },
  ];
}

/** The store, counting the messages its transcripts yield. */
function counting(store: Store): { store: FiguresStore; read: () => number } {
  let read = 0;
  const counted: FiguresStore = {
    getSession: (id) => store.getSession(id),
    snapshots: (id, options) => store.snapshots(id, options),
    turns: (id) => store.turns(id),
    usageTotals: (id) => store.usageTotals(id),
    messageCount: (id) => store.messageCount(id),
    requests: store.requests,
    async *iterateMessages(id, range) {
      for await (const message of store.iterateMessages(id, range)) {
        read += 1;
        yield message;
      }
    },
  };
  return { store: counted, read: () => read };
}

describe('TranscriptReader', () => {
  it('reads only what was stored since, and finds what a whole pass finds', async () => {
    const store = await openStore({ path: tempDbPath().file });
    try {
      const session = await store.createSession({ game: 'embedded', model: 'builtin/autopilot', name: 'kept' });
      for (const turn of [1, 2, 3])
        await store.appendMany(session.id, exchange(turn, turn === 2 ? 'no_fuel' : undefined));
      const { store: counted, read } = counting(store);
      const reader = new TranscriptReader(counted, session.id);
      expect(await reader.read()).toEqual(await scanTranscript(store, session.id));
      expect(read()).toBe(6);
      // Turn 3 goes on (a second call in it) and turn 4 starts: the re-read starts at turn 3, not at the beginning.
      await store.appendMany(session.id, [...exchange(3, 'rate_limited'), ...exchange(4)]);
      const again = await reader.read();
      expect(read() - 6).toBe(6); // turn 3's four messages (two read before, skipped) and turn 4's two
      const whole = await scanTranscript(store, session.id);
      expect(again).toEqual(whole);
      expect(again.toolCalls).toBe(5);
      expect(again.errorsByCode).toEqual({ no_fuel: 1, rate_limited: 1 });
    } finally {
      await store.close();
    }
  });

  it('starts over when a message was stored behind the turn it had read to', async () => {
    const store = await openStore({ path: tempDbPath().file });
    try {
      const session = await store.createSession({ game: 'embedded', model: 'builtin/autopilot', name: 'late' });
      for (const turn of [1, 2, 3]) await store.appendMany(session.id, exchange(turn));
      const reader = new TranscriptReader(store, session.id);
      await reader.read();
      // Stored now, for turn 1: a read from turn 3 on does not see it; the count does.
      await store.appendMany(session.id, exchange(1, 'not_docked'));
      const again = await reader.read();
      expect(again.errorsByCode).toEqual({ not_docked: 1 });
      expect(again).toEqual(await scanTranscript(store, session.id));
    } finally {
      await store.close();
    }
  });
});
