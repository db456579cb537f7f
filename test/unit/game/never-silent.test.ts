// Never silent (issue 48): a game call still unanswered after a while is said once — a `waiting` connection event,
// one line for people ("still waiting for the game: get_status, 10 s…"), a `game-wait` event with --json — and a
// call answered in time says nothing. The threshold is 10 s; here 50 ms, on a game that never answers get_status.
import { afterEach, describe, expect, it } from 'vitest';
import { connectGame, SLOW_CALL_NOTICE_MS, type GameConnection } from '../../../internal/game/index.js';
import { attachJsonWaits, attachLoginNotices, waitingLine } from '../../../internal/cli/watchers.js';
import type { Output } from '../../../internal/cli/output.js';
import { createChalk } from '../../../internal/cli/render.js';
import type { ConnectionEvent } from '../../../internal/shared/index.js';
import { createWorld, inMemoryTarget } from '../../fakes/fake-spacemolt-server.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';
import { fakeClock } from './fake-clock.js';

const open: GameConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function stalledGame(): Promise<{ game: GameConnection; events: ConnectionEvent[] }> {
  const game = await connectGame({
    target: inMemoryTarget(createWorld({ hangTool: 'get_status' })),
    credentials: memoryCredentials(),
    timeouts: { queryMs: 400 },
    retry: { backoffMs: 10, reconnectAttempts: 0 },
    clock: fakeClock(),
    slowNoticeMs: 50,
  });
  open.push(game);
  const events: ConnectionEvent[] = [];
  game.onEvent((event) => events.push(event));
  return { game, events };
}

describe('never silent', () => {
  it('a call the game leaves unanswered is said once, as a line and as a game-wait event; one answered is not', async () => {
    const { game, events } = await stalledGame();
    const lines: string[] = [];
    const json: Array<Record<string, unknown>> = [];
    attachLoginNotices({
      game,
      output: { line: (text: string) => lines.push(text) } as unknown as Output,
      chalk: createChalk(false),
      write: undefined,
    });
    attachJsonWaits({ game, retries: new Set(), write: (event) => json.push(event) });
    await game.call('get_map', {});
    expect(events.filter((event) => event.type === 'waiting')).toEqual([]);
    const result = await game.call('get_status', {});
    expect(result.isError).toBe(true); // the call still ends at its own timeout
    expect(events.filter((event) => event.type === 'waiting')).toEqual([
      { type: 'waiting', tool: 'get_status', waitedMs: 50 },
    ]);
    expect(lines).toEqual(['  … still waiting for the game: get_status, 1 s…']);
    expect(json).toEqual([{ type: 'game-wait', reason: 'no_answer', tool: 'get_status', waited_ms: 50 }]);
  });

  it('says the wait in whole seconds, 10 s by default', () => {
    expect(SLOW_CALL_NOTICE_MS).toBe(10_000);
    expect(waitingLine({ tool: 'get_status', waitedMs: SLOW_CALL_NOTICE_MS })).toBe(
      '  … still waiting for the game: get_status, 10 s…',
    );
  });
});
