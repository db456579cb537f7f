// A fleet file's limits (issue 48): a YAML alias bomb is a usage error with one line, not a stack trace; a file over
// FLEET_FILE_MAX_BYTES is refused before it is read; a goal over GOAL_MAX_CHARS is named, its value quoted short.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFleetText, readFleetFile } from '../../../internal/fleet/fleet-file.js';
import { FLEET_FILE_MAX_BYTES, GOAL_MAX_CHARS } from '../../../internal/shared/index.js';
import { usageProblemOf } from './fleet-problem.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Nine levels of nine aliases each: 9^9 (387 million) strings once expanded, a few hundred bytes written. */
export function aliasBomb(): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level <= 9; level++)
    lines.push(`a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(',')}]`);
  lines.push('captains:', '  - name: ada', '    goal: *a9');
  return `${lines.join('\n')}\n`;
}

describe('fleet file limits', () => {
  it('refuses a YAML alias bomb with one line naming the file', () => {
    const message = usageProblemOf(() => parseFleetText(aliasBomb(), 'bomb.yaml'));
    expect(message).toMatch(/^bomb\.yaml: its aliases \(\*name\) expand too far/);
    expect(message).not.toMatch(/\n/);
  });

  it('still reads a file that shares settings through a few aliases', () => {
    const spec = parseFleetText(
      [
        'name: shared',
        'captains:',
        '  - {name: ada, model: &model builtin/autopilot, max_ticks: &ticks 10}',
        '  - {name: bob, model: *model, max_ticks: *ticks}',
        '  - {name: cyd, model: *model, max_ticks: *ticks}',
      ].join('\n'),
      'shared.yaml',
    );
    expect(spec.captains.map((captain) => [captain.name, captain.model, captain.maxTicks])).toEqual([
      ['ada', 'builtin/autopilot', 10],
      ['bob', 'builtin/autopilot', 10],
      ['cyd', 'builtin/autopilot', 10],
    ]);
  });

  it(`refuses a file over ${FLEET_FILE_MAX_BYTES} bytes before reading it`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-fleet-limits-'));
    made.push(dir);
    const file = path.join(dir, 'big.yaml');
    fs.writeFileSync(file, `captains:\n  - name: ada\n# ${'x'.repeat(FLEET_FILE_MAX_BYTES)}\n`);
    expect(usageProblemOf(() => readFleetFile(file, {}))).toMatch(
      /big\.yaml is 1,048,6\d\d bytes; a fleet file is at most 1,048,576$/,
    );
  });

  it(`names a goal over ${GOAL_MAX_CHARS} characters, quoting only its start`, () => {
    const text = `captains:\n  - name: ada\n    goal: ${'g'.repeat(GOAL_MAX_CHARS + 1)}\n`;
    const message = usageProblemOf(() => parseFleetText(text, 'long.yaml'));
    expect(message).toMatch(/goal must be some text of at most 4,000 characters/);
    expect(message).toMatch(/… \(4,003 characters\)/);
    expect(message.length).toBeLessThan(400);
  });
});
