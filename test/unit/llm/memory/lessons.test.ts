// Episodes and lessons written by code: one short episode per eventful turn; a lesson only when the same error code
// on the same kind of action repeats (≥ 2), worded from the code table, deduplicated with fresh evidence.
import { describe, expect, it } from 'vitest';
import { createMemory, EPISODES_KEPT, factualHandoff, lessonText } from '../../../../internal/llm/memory/index.js';
import { SPACEMOLT_LESSONS } from '../../../../internal/spacemolt/index.js';
import { FakeMemoryPort } from './fake-port.js';

const CAPTAIN = 'embedded#nova';

function setup(): { port: FakeMemoryPort; memory: ReturnType<typeof createMemory>; clock: { now: number } } {
  const clock = { now: Date.UTC(2026, 10, 21, 12, 0) };
  const port = new FakeMemoryPort(() => clock.now);
  // The game's wordings come from its guide (a SpaceMolt profile's, here); the loop names no game.
  const memory = createMemory({
    port,
    captain: CAPTAIN,
    secrets: () => ['pw-Secret-77'],
    now: () => clock.now,
    lessons: () => SPACEMOLT_LESSONS,
  });
  return { port, memory, clock };
}

const jumpFail = { tool: 'jump', code: 'no_fuel', args: '{"target_system":"crimson"}' };

describe('episodes', () => {
  it('writes a short factual episode per eventful turn, and none for an idle one', async () => {
    const { port, memory } = setup();
    const result = await memory.recordTurn({
      goal: 'mine and sell iron',
      outcome: 'answered',
      creditsBefore: 150,
      creditsAfter: 230,
      actions: ['undock', 'mine', 'mine', 'mine', 'dock', 'sell', 'remember'],
      errors: [],
    });
    const episode = await port.get(result.episodeId ?? -1);
    expect(episode?.text).toBe(
      'Goal "mine and sell iron": answered; credits 150→230 (+80); did undock, mine×3, dock, sell.',
    );
    expect(episode?.outcome).toBe('success');
    expect((await memory.recordTurn({ outcome: 'answered', actions: [], errors: [] })).episodeId).toBeUndefined();
    expect(await port.list(CAPTAIN, { kind: 'episode' })).toHaveLength(1);
  });

  it('marks failures and keeps no secret from the goal or the arguments', async () => {
    const { port, memory } = setup();
    const result = await memory.recordTurn({
      goal: 'log in with pw-secret-77',
      outcome: 'round_limit',
      actions: [],
      errors: [{ tool: 'login', code: 'invalid_credentials', args: '{"password":"pw-Secret-77"}' }],
    });
    const episode = await port.get(result.episodeId ?? -1);
    expect(episode?.outcome).toBe('failure');
    expect(JSON.stringify(episode).toLowerCase()).not.toContain('pw-secret-77');
    expect(episode?.text).toContain('invalid_credentials on login');
  });
});

describe('lessons', () => {
  it('are not drawn from a single failure', async () => {
    const { port, memory } = setup();
    const result = await memory.recordTurn({ outcome: 'answered', actions: [], errors: [jumpFail] });
    expect(result.lessons).toEqual([]);
    expect(await port.list(CAPTAIN, { kind: 'lesson' })).toHaveLength(0);
  });

  it('come from the same code on the same action twice across episodes, with wording and evidence', async () => {
    const { port, memory, clock } = setup();
    await memory.recordTurn({ outcome: 'answered', actions: ['mine'], errors: [jumpFail] });
    clock.now += 60_000;
    const result = await memory.recordTurn({
      outcome: 'answered',
      actions: [],
      errors: [{ ...jumpFail, args: '{"target_system":"nebula"}' }],
    });
    expect(result.lessons).toHaveLength(1);
    expect(result.lessons[0]).toMatchObject({ key: 'no_fuel:jump', count: 2, created: true });
    const [lesson] = await port.list(CAPTAIN, { kind: 'lesson' });
    expect(lesson?.text).toMatch(/^Avoid jumping on a low tank: refuel before jumping — check fuel ≥ 5 \+ cargo\/20/);
    expect(lesson?.text).toContain('no_fuel on jump: 2×, last seen 2026-11-21 12:01 UTC');
    expect(lesson?.text).toContain('nebula');
    expect(lesson?.outcome).toBe('failure');
    expect(memory.block({ goal: 'jump to crimson' })).toContain('Avoid jumping on a low tank');
  });

  it('counts repeats inside one turn too, and not across different actions or codes', async () => {
    const { port, memory } = setup();
    await memory.recordTurn({
      outcome: 'answered',
      actions: [],
      errors: [jumpFail, { tool: 'travel', code: 'no_fuel' }, { tool: 'jump', code: 'not_connected' }],
    });
    expect(await port.list(CAPTAIN, { kind: 'lesson' })).toHaveLength(0);
    const result = await memory.recordTurn({
      outcome: 'answered',
      actions: [],
      errors: [
        { tool: 'mine', code: 'no_cargo_space' },
        { tool: 'mine', code: 'no_cargo_space' },
      ],
    });
    expect(result.lessons.map((lesson) => lesson.key)).toEqual(['no_cargo_space:mine']);
  });

  it('are deduplicated: a repeat refreshes the evidence of the one lesson', async () => {
    const { port, memory, clock } = setup();
    for (let index = 0; index < 4; index += 1) {
      clock.now += 3_600_000;
      await memory.recordTurn({ outcome: 'answered', actions: [], errors: [{ tool: 'sell', code: 'not_docked' }] });
    }
    const lessons = await port.list(CAPTAIN, { kind: 'lesson' });
    expect(lessons).toHaveLength(1);
    expect(lessons[0]?.text).toContain('not_docked on sell: 4×');
    expect(lessons[0]?.evidence).toMatchObject({ key: 'not_docked:sell', count: 4 });
    expect(lessons[0]?.text).toMatch(/^Prefer docking first: sell only works docked/);
    // The refreshed lesson is the only one the block shows.
    const block = memory.preview({ goal: 'sell' }).text;
    expect(block.match(/Prefer docking first/g)).toHaveLength(1);
  });

  it('keep their counts when old episodes are pruned', async () => {
    const { port, memory, clock } = setup();
    await memory.recordTurn({ outcome: 'answered', actions: [], errors: [jumpFail, jumpFail] });
    for (let index = 0; index < EPISODES_KEPT + 150; index += 1) {
      clock.now += 1000;
      await memory.recordTurn({ outcome: 'answered', actions: ['mine'], errors: [] });
    }
    const episodes = await port.list(CAPTAIN, { kind: 'episode' });
    expect(episodes.length).toBeLessThanOrEqual(EPISODES_KEPT + 100);
    expect(episodes.some((episode) => episode.text.includes('no_fuel'))).toBe(false);
    await memory.recordTurn({ outcome: 'answered', actions: [], errors: [jumpFail] });
    const lessons = await port.list(CAPTAIN, { kind: 'lesson' });
    expect(lessons).toHaveLength(1);
    expect(lessons[0]?.evidence).toMatchObject({ count: 3, firstSeen: Date.UTC(2026, 10, 21, 12, 0) });
  });

  it('use a generic wording for unknown codes and ignore cancellations and auth codes', async () => {
    const { port, memory } = setup();
    for (let index = 0; index < 2; index += 1) {
      await memory.recordTurn({
        outcome: 'answered',
        actions: [],
        errors: [
          { tool: 'scan', code: 'sensor_jammed' },
          { tool: 'jump', code: 'cancelled' },
          { tool: 'get_status', code: 'not_authenticated' },
        ],
      });
    }
    const lessons = await port.list(CAPTAIN, { kind: 'lesson' });
    expect(lessons.map((lesson) => lesson.text)).toEqual([
      expect.stringMatching(
        /^Avoid repeating scan when it fails with sensor_jammed: read the error and change something first/,
      ),
    ]);
  });

  it("word a code the game has no wording for generically, and Skipper's own codes without the game", () => {
    const evidence = { key: 'no_fuel:jump', code: 'no_fuel', tool: 'jump', count: 2, firstSeen: 0, lastSeen: 0 };
    expect(lessonText(evidence)).toMatch(/^Avoid repeating jump when it fails with no_fuel: read the error/);
    expect(lessonText(evidence, SPACEMOLT_LESSONS)).toMatch(/^Avoid jumping on a low tank/);
    const unknown = { ...evidence, key: 'unknown_tool:fly', code: 'unknown_tool', tool: 'fly' };
    expect(lessonText(unknown)).toMatch(/^Avoid calling "fly": it does not exist/);
  });

  it('word every known code as Avoid/Prefer', () => {
    const codes = [
      'no_fuel',
      'no_cargo_space',
      'not_docked',
      'in_transit',
      'action_pending',
      'rate_limited',
      'invalid_params',
      'no_credits',
      'insufficient_cargo',
      'no_resources',
      'not_connected',
      'wrong_system',
      'invalid_poi',
      'already_docked',
      'docked',
      'no_base',
    ];
    for (const code of codes) {
      const evidence = { key: `${code}:mine`, code, tool: 'mine', count: 3, firstSeen: 0, lastSeen: 0 };
      const text = lessonText(evidence, SPACEMOLT_LESSONS);
      expect(text).toMatch(/^(Avoid|Prefer) /);
      expect(text).not.toContain('Avoid repeating mine when it fails');
    }
  });
});

describe('handoff', () => {
  it('the factual handoff reads as one line of facts', () => {
    expect(
      factualHandoff({
        turns: 12,
        creditsStart: 150,
        creditsEnd: 420,
        location: 'Sol / Sol Central (docked)',
        cargo: '12/70 (iron_ore×12)',
        watchOut: { no_fuel: 2, rate_limited: 5 },
      }),
    ).toBe(
      'Last session: 12 turns, credits 150→420, at Sol / Sol Central (docked), cargo 12/70 (iron_ore×12), watch out for rate_limited (5×), no_fuel (2×).',
    );
    expect(factualHandoff({ turns: 1 })).toBe('Last session: 1 turn.');
  });

  it('writeHandoff keeps the latest few, shows only the latest, and refuses secrets', async () => {
    const { port, memory } = setup();
    for (let index = 1; index <= 7; index += 1)
      expect((await memory.writeHandoff(`handoff number ${index}`)).ok).toBe(true);
    expect((await port.list(CAPTAIN, { kind: 'handoff' })).map((entry) => entry.text)).toEqual(
      [3, 4, 5, 6, 7].map((n) => `handoff number ${n}`),
    );
    const block = memory.preview({}).text;
    expect(block).toContain('handoff number 7');
    expect(block).not.toContain('handoff number 6');
    expect(await memory.writeHandoff('my password: PW-SECRET-77')).toEqual({
      ok: false,
      reason: expect.stringContaining('password'),
    });
    expect((await memory.writeHandoff('   ')).ok).toBe(false);
    expect(await port.list(CAPTAIN, { kind: 'handoff' })).toHaveLength(5);
  });
});
