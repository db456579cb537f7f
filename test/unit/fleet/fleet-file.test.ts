// The fleet file as a person writes it: YAML and JSON files in a temp dir, defaults under each captain, and every
// mistake as a sentence that names the file, the captain and the field.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closestName,
  editDistance,
  parseFleetDuration,
  parseFleetText,
  readFleetFile,
} from '../../../internal/fleet/fleet-file.js';
import { UsageError } from '../../../internal/shared/index.js';
import { problemOf } from './fleet-problem.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function writeFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-fleet-'));
  made.push(dir);
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const yamlFleet = `
name: miners
budget_usd: 5
defaults:
  model: openai/gpt-4o-mini
  fallback_model: openai/gpt-4.1-nano
  planner: true
  max_ticks: 500
  duration: 30m
  tick_ms: 250
captains:
  - name: miner-1
    goal: mine ore and sell it
  - name: miner-2
    model: builtin/autopilot
    planner: false
    session: m2-session
    budget_usd: 0.5
    budget_tokens: 20000
    duration: 1h30m
    password_env: PASS_MINER_2
    username: miner2
    game: https://game.spacemolt.com/mcp
    seed: 7
    planner_every: 3
    max_turns: 12
`;

describe('readFleetFile: a good file', () => {
  it('reads YAML: the captain’s fields over defaults, and the built-in defaults under both', () => {
    const file = writeFile('miners.yaml', yamlFleet);
    const spec = readFleetFile(file, { PASS_MINER_2: 'secret' });
    expect(spec.name).toBe('miners');
    expect(spec.file).toBe(path.resolve(file));
    expect(spec.budgetUsd).toBe(5);
    expect(spec.captains).toEqual([
      {
        name: 'miner-1',
        session: 'miner-1',
        game: 'embedded',
        model: 'openai/gpt-4o-mini',
        fallbackModel: 'openai/gpt-4.1-nano',
        planner: true,
        maxTicks: 500,
        duration: 30 * 60_000,
        tickMs: 250,
        goal: 'mine ore and sell it',
      },
      {
        name: 'miner-2',
        session: 'm2-session',
        game: 'https://game.spacemolt.com/mcp',
        model: 'builtin/autopilot',
        fallbackModel: 'openai/gpt-4.1-nano',
        planner: false,
        plannerEvery: 3,
        maxTicks: 500,
        maxTurns: 12,
        duration: 90 * 60_000,
        tickMs: 250,
        budgetUsd: 0.5,
        budgetTokens: 20000,
        passwordEnv: 'PASS_MINER_2',
        username: 'miner2',
        seed: 7,
      },
    ]);
  });

  it('reads JSON, names the fleet after the file, and fills game, model, planner and session itself', () => {
    const file = writeFile('night-shift.json', JSON.stringify({ captains: [{ name: 'solo', duration: 90000 }] }));
    const spec = readFleetFile(file, {});
    expect(spec.name).toBe('night-shift');
    expect(spec.budgetUsd).toBeUndefined();
    expect(spec.captains).toEqual([
      { name: 'solo', session: 'solo', game: 'embedded', model: 'builtin/autopilot', planner: false, duration: 90000 },
    ]);
  });
});

describe('readFleetFile: what is wrong with a file', () => {
  it('a missing file', () => {
    const missing = path.join(os.tmpdir(), 'skipper-no-such-dir', 'fleet.yaml');
    expect(() => readFleetFile(missing, {})).toThrow(new UsageError(`no fleet file at ${missing}`));
  });

  it('a directory instead of a file', () => {
    const dir = path.dirname(writeFile('x.yaml', ''));
    expect(() => readFleetFile(dir, {})).toThrow(/is a directory, not a fleet file/);
  });

  it('a YAML syntax error says the line', () => {
    const message = problemOf('captains:\n  - name: ada\n    goal: "unclosed\n');
    expect(message).toMatch(/^fleet\.yaml: line \d+, column \d+: not valid YAML/);
    const tabs = problemOf('captains:\n  - name: ada\n   bad: [1, 2\n');
    expect(tabs).toMatch(/line [23]/);
  });

  it('a duplicate key in one mapping is a YAML error too', () => {
    expect(problemOf('captains:\n  - name: ada\n    max_ticks: 3\n    max_ticks: 4\n')).toMatch(
      /line 4.*not valid YAML/,
    );
  });

  it('an empty file or a list at the top', () => {
    expect(problemOf('')).toMatch(/^fleet\.yaml: expected a mapping with captains:/);
    expect(problemOf('- name: ada\n')).toMatch(/expected a mapping/);
  });

  it('no captains, or an empty list', () => {
    expect(problemOf('name: xan\n')).toBe(
      'fleet.yaml: captains must be a non-empty list of captains, each with a name (got nothing)',
    );
    expect(problemOf('captains: []\n')).toMatch(/captains must be a non-empty list .*\(got \[\]\)/);
  });

  it('a field with the wrong kind of value names the captain, the field and what it got', () => {
    expect(problemOf('captains:\n  - name: miner-2\n    max_ticks: ten\n')).toBe(
      'fleet.yaml: captain "miner-2": max_ticks must be a whole number ≥ 1 (got "ten")',
    );
    expect(problemOf('captains:\n  - name: ada\n    max_turns: 0\n')).toMatch(
      /max_turns must be a whole number ≥ 1 \(got 0\)/,
    );
    expect(problemOf('captains:\n  - name: ada\n    planner: yes\n')).toMatch(
      /planner must be true or false \(got "yes"\)/,
    );
    expect(problemOf('captains:\n  - name: ada\n    planner_every: 1.5\n')).toMatch(
      /planner_every must be a whole number of ticks/,
    );
    expect(problemOf('captains:\n  - name: ada\n    budget_usd: -1\n')).toMatch(
      /budget_usd must be a number of US dollars > 0 \(got -1\)/,
    );
    expect(problemOf('captains:\n  - name: ada\n    game: mars\n')).toMatch(
      /game must be "embedded" or a game URL \(got "mars"\)/,
    );
    expect(problemOf('captains:\n  - name: ada\n    base_url: ftp://x\n')).toMatch(/base_url must be a URL/);
    expect(problemOf('captains:\n  - name: ada\n    tick_ms: 700000\n')).toMatch(
      /tick_ms must be a whole number of milliseconds from 0 to 600000/,
    );
    expect(problemOf('captains:\n  - name: ada\n    model: ""\n')).toMatch(/model must be a model id/);
  });

  it('a duration that is not one', () => {
    expect(problemOf('captains:\n  - name: ada\n    duration: soon\n')).toBe(
      'fleet.yaml: captain "ada": duration must be a duration like 90s, 30m or 2h, or a number of milliseconds (got "soon")',
    );
    expect(problemOf('captains:\n  - name: ada\n    duration: "90"\n')).toMatch(/duration must be/);
    expect(problemOf('captains:\n  - name: ada\n    duration: 0s\n')).toMatch(/duration must be/);
  });

  it('a captain without a name is called by its place in the list', () => {
    expect(problemOf('captains:\n  - name: ada\n  - goal: x\n    max_ticks: many\n')).toBe(
      [
        'fleet.yaml: captains[1]: max_ticks must be a whole number ≥ 1 (got "many")',
        'fleet.yaml: captains[1]: name is missing: give each captain a name (letters, digits, - and _)',
      ].join('\n'),
    );
    expect(problemOf('captains:\n  - just-a-string\n')).toMatch(/captains\[0\]: must be a mapping with a name/);
  });

  it('a name with spaces, or too long', () => {
    expect(problemOf('captains:\n  - name: big ship\n')).toMatch(/captain "big ship": name must be 1-40 letters/);
    expect(problemOf(`captains:\n  - name: ${'x'.repeat(41)}\n`)).toMatch(/name must be 1-40/);
    expect(problemOf('captains:\n  - name: 12\n')).toMatch(
      /captains\[0\]: name must be 1-40 letters, digits, - or _ \(got 12\)/,
    );
  });

  it('unknown fields get a did-you-mean when close, the list of fields when not', () => {
    expect(problemOf('captains:\n  - name: ada\n    max_tick: 3\n')).toBe(
      'fleet.yaml: captain "ada": unknown field "max_tick" — did you mean max_ticks?',
    );
    expect(problemOf('captains:\n  - name: ada\n    fallbackModel: m\n')).toMatch(
      /unknown field "fallbackModel" — did you mean fallback_model\?/,
    );
    expect(problemOf('captains:\n  - name: ada\n    colour: red\n')).toMatch(
      /unknown field "colour" \(the fields are: name, game, model, /,
    );
    expect(problemOf('budget: 3\ncaptains:\n  - name: ada\n')).toBe(
      'fleet.yaml: unknown field "budget" (the fields are: name, budget_usd, defaults, captains, alerts)',
    );
    expect(problemOf('captain:\n  - name: ada\n')).toMatch(/unknown field "captain" — did you mean captains\?/);
    expect(problemOf('defaults:\n  modle: x\ncaptains:\n  - name: ada\n')).toMatch(
      /^fleet\.yaml: defaults: unknown field "modle" — did you mean model\?/,
    );
  });

  it('a bad value in defaults is reported once, under defaults', () => {
    const message = problemOf('defaults:\n  max_ticks: -5\ncaptains:\n  - name: ada\n  - name: bob\n');
    expect(message).toBe('fleet.yaml: defaults: max_ticks must be a whole number ≥ 1 (got -5)');
  });

  it('name and session do not belong in defaults', () => {
    expect(problemOf('defaults:\n  session: shared\ncaptains:\n  - name: ada\n')).toMatch(
      /defaults: name and session belong to each captain/,
    );
  });

  it('duplicate captain names and duplicate sessions', () => {
    expect(problemOf('captains:\n  - name: ada\n  - name: ada\n')).toMatch(
      /captain "ada": the name is used by another captain: names must be unique/,
    );
    expect(problemOf('captains:\n  - name: ada\n  - name: bob\n    session: ada\n')).toBe(
      'fleet.yaml: captain "bob": session "ada" is already played by captain "ada": give it its own session',
    );
  });

  it('a session name the store would refuse', () => {
    expect(problemOf('captains:\n  - name: ada\n    session: "-dash"\n')).toMatch(
      /captain "ada": session invalid session name "-dash"/,
    );
  });

  it('passwords are never accepted inline', () => {
    expect(problemOf('captains:\n  - name: xan\n    password: hunter2\n')).toBe(
      'fleet.yaml: captain "xan": password may not be written in the file: put it in an environment variable and name that with password_env',
    );
    expect(problemOf('defaults:\n  api_key: sk-123\ncaptains:\n  - name: xan\n')).toMatch(
      /defaults: api_key may not be written .*api_key_env/,
    );
    const message = problemOf('captains:\n  - name: xan\n    password: hunter2\n');
    expect(message).not.toContain('hunter2');
  });

  it('env fields must name variables (UPPER_SNAKE) that are set', () => {
    expect(problemOf('captains:\n  - name: xan\n    password_env: my-pass\n')).toMatch(
      /captain "xan": password_env must be an environment variable name like PASS_MINER_1 \(got "my-pass"\)/,
    );
    const file = writeFile(
      'f.yaml',
      'defaults:\n  api_key_env: OPENAI_KEY\ncaptains:\n  - name: xan\n    password_env: PASS_X\n    registration_code_env: CODE\n',
    );
    expect(() => readFleetFile(file, { OPENAI_KEY: 'k', CODE: 'c' })).toThrow(
      new UsageError(`${path.resolve(file)}: captain "xan": password_env PASS_X is not set in the environment`),
    );
    expect(() => readFleetFile(file, { CODE: 'c', PASS_X: '' })).toThrow(
      /api_key_env OPENAI_KEY is not set in the environment\n.*password_env PASS_X is not set/,
    );
    expect(readFleetFile(file, { OPENAI_KEY: 'k', CODE: 'c', PASS_X: 'p' }).captains[0]?.registrationCodeEnv).toBe(
      'CODE',
    );
  });

  it('a fleet name that cannot be one, given or taken from the file name', () => {
    expect(problemOf('name: my fleet\ncaptains:\n  - name: ada\n')).toMatch(/^fleet\.yaml: name must be 1-40 letters/);
    expect(problemOf('captains:\n  - name: ada\n', '/tmp/my fleet.yaml')).toMatch(
      /the file name "my fleet" cannot name the fleet .*add a top-level name:/,
    );
    expect(parseFleetText('name: ok\ncaptains:\n  - name: ada\n', '/tmp/my fleet.yaml').name).toBe('ok');
  });

  it('reports every problem at once, one line each', () => {
    const message = problemOf(
      'budget_usd: free\ncaptains:\n  - name: ada\n    max_ticks: x\n  - name: bob\n    seed: 1.5\n',
    );
    expect(message.split('\n')).toEqual([
      'fleet.yaml: budget_usd must be a number of US dollars > 0 (got "free")',
      'fleet.yaml: captain "ada": max_ticks must be a whole number ≥ 1 (got "x")',
      'fleet.yaml: captain "bob": seed must be a whole number (got 1.5)',
    ]);
  });
});

describe('helpers', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    [1500, 1500],
    ['1.5s', 1500],
  ] as const)('duration %s is %s ms', (value, ms) => {
    expect(parseFleetDuration(value)).toBe(ms);
  });

  it.each([['90'], ['5 m'], ['-3s'], [0], [-1], [true], ['m']] as const)('%s is no duration', (value) => {
    expect(parseFleetDuration(value)).toBeUndefined();
  });

  it('edit distance and the closest name', () => {
    expect(editDistance('max_tick', 'max_ticks')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closestName('gaem', ['game', 'goal'])).toBe('game');
    expect(closestName('xyz', ['game', 'goal'])).toBeUndefined();
    expect(closestName('maxTicks', ['max_ticks'])).toBe('max_ticks');
  });
});

describe('usernames', () => {
  it("a captain's name is its username unless username: is given, and must be one", () => {
    expect(problemOf('captains:\n  - name: bo\n')).toBe(
      'fleet.yaml: captain "bo": its name is its game username unless username: says otherwise, and a username needs 3-24 letters, digits, _ or - (got "bo"): add username:',
    );
    expect(
      parseFleetText('captains:\n  - name: bo\n    username: Bo_the_miner\n', 'fleet.yaml').captains[0]?.username,
    ).toBe('Bo_the_miner');
    expect(problemOf('captains:\n  - name: bob\n    username: "x y"\n')).toMatch(/username must be 3-24 letters/);
  });
});
