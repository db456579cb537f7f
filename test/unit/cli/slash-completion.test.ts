import { describe, expect, it } from 'vitest';
import { completeSlashCommand, SLASH_COMMANDS } from '../../../internal/cli/slash-commands.js';
import { TerminalOutput } from '../../../internal/cli/output.js';

describe('Tab completion of slash commands', () => {
  it('completes a prefix to the commands it starts', () => {
    expect(completeSlashCommand('/st')).toEqual([['/stop', '/status'], '/st']);
    expect(completeSlashCommand('/pl')).toEqual([['/planner'], '/pl']);
    expect(completeSlashCommand('/cl')).toEqual([['/clear'], '/cl']);
  });

  it('lists every command for a bare slash or an unknown prefix, and nothing for chat text or arguments', () => {
    const all = Object.keys(SLASH_COMMANDS).map((usage) => usage.split(' ')[0]);
    expect(completeSlashCommand('/')[0]).toEqual(all);
    expect(completeSlashCommand('/zz')[0]).toEqual(all);
    expect(completeSlashCommand('mine some ore')).toEqual([[], 'mine some ore']);
    expect(completeSlashCommand('/model open')).toEqual([[], '/model open']);
  });
});

describe('/clear', () => {
  it('clears a terminal screen and writes nothing to a pipe', () => {
    const written: string[] = [];
    const stream = (isTTY: boolean) => ({ isTTY, columns: 80, write: (text: string) => (written.push(text), true) });
    new TerminalOutput({ stdout: stream(true), stderr: stream(true), color: false, interactive: true }).clearScreen();
    expect(written.join('')).toContain('\x1b[2J');
    written.length = 0;
    new TerminalOutput({
      stdout: stream(false),
      stderr: stream(false),
      color: false,
      interactive: false,
    }).clearScreen();
    expect(written).toEqual([]);
  });
});
