// Stored data stays readable across the vocabulary's renames: turns written with the kebab-case outcomes of older
// Skippers (round-limit, loop-detected, budget-exceeded, limit-reached) read back in today's snake_case names.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../internal/store/index.js';
import { TURN_OUTCOMES, turnOutcomeOf } from '../../../internal/shared/index.js';
import { tempDbPath } from './helpers.js';

describe('former names in stored data', () => {
  it('reads turns stored with kebab-case outcomes in the snake_case vocabulary', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const session = await store.createSession({ name: 'old', game: 'embedded', model: 'builtin/autopilot' });
    await store.close();

    // Rows as an older Skipper wrote them, straight into the table.
    const raw = new Database(file);
    const insert = raw.prepare(
      `INSERT INTO turns (session_id, turn, outcome, rounds, tool_calls, started_at, ended_at, input_kind)
       VALUES (?, ?, ?, 1, 0, 1, 2, 'autoplay')`,
    );
    const old = ['round-limit', 'loop-detected', 'budget-exceeded', 'limit-reached', 'cancelled', 'answered'];
    old.forEach((outcome, index) => insert.run(session.id, index + 1, outcome));
    raw.close();

    const reopened = await openStore({ path: file });
    const outcomes = (await reopened.turns(session.id)).map((turn) => turn.outcome);
    expect(outcomes).toEqual([
      'round_limit',
      'loop_detected',
      'budget_exceeded',
      'limit_reached',
      'cancelled',
      'answered',
    ]);
    for (const outcome of outcomes) expect(TURN_OUTCOMES).toContain(outcome);
    await reopened.close();
  });

  it("leaves today's outcomes as they are", () => {
    for (const outcome of TURN_OUTCOMES) expect(turnOutcomeOf(outcome)).toBe(outcome);
    expect(turnOutcomeOf('loop-detected')).toBe('loop_detected');
  });
});
