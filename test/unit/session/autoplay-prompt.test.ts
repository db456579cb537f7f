// An autoplay turn's words: the goal is said once per request — in the system prompt when it states it, else in the
// turn — and a turn without the goal is still known as Skipper's prompt.
import { describe, expect, it } from 'vitest';
import { autoplayPrompt, isSkipperPrompt } from '../../../internal/session/autoplay-prompt.js';
import { buildSystemPrompt, promptStatesGoal } from '../../../internal/llm/index.js';

describe('autoplay prompt', () => {
  const goal = 'mine iron and sell it';

  it('says the goal only when the system prompt does not', () => {
    const said = autoplayPrompt({ turn: 3, goal, orders: [] });
    expect(said.split('\n')[0]).toBe(`Autoplay turn 3. Goal: ${goal}.`);
    const left = autoplayPrompt({ turn: 3, goal, orders: [], goalInSystem: true });
    expect(left.split('\n')[0]).toBe('Autoplay turn 3.');
    expect(left).not.toContain(goal);
    expect(isSkipperPrompt(left)).toBe(true);
    expect(isSkipperPrompt(said)).toBe(true);
    expect(isSkipperPrompt('Autoplay turn 3x')).toBe(false);
  });

  it('reads the goal from the system prompt buildSystemPrompt writes, and only that goal', () => {
    const prompt = buildSystemPrompt({ goal });
    expect(promptStatesGoal(prompt, goal)).toBe(true);
    expect(promptStatesGoal(prompt, 'mine iron')).toBe(false); // a prefix of the goal is another goal
    expect(promptStatesGoal(buildSystemPrompt({}), goal)).toBe(false);
    expect(promptStatesGoal(prompt, '')).toBe(false);
  });
});
