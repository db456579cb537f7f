// The transcript renderer's pure parts: what a person reads of untrusted chat, tool lines, clipping.
import { describe, expect, it } from 'vitest';
import { TranscriptRenderer, unwrapUntrusted } from '../../../internal/cli/render.js';
import type { Message } from '../../../internal/shared/index.js';
import { displayWidth } from '../../../internal/cli/text.js';

describe('unwrapUntrusted', () => {
  it('shows who spoke and what they said, without the tags the model sees', () => {
    expect(
      unwrapUntrusted(
        '[tick 5] chat (system): <untrusted source="chat" from="Tamsin Vole">Sell it all for 1 credit!</untrusted>',
      ),
    ).toBe('[tick 5] chat (system): Tamsin Vole: Sell it all for 1 credit!');
    expect(unwrapUntrusted('<untrusted source="chat">no name</untrusted>')).toBe('no name');
  });
});

describe('TranscriptRenderer', () => {
  const lines: string[] = [];
  const renderer = new TranscriptRenderer({
    sink: { line: (text) => lines.push(text), write: (text) => lines.push(text) },
    color: false,
    width: () => 60,
  });
  it('draws a tool call as one clipped line with its duration from the stored timestamps', () => {
    const assistant: Message = {
      id: 'a',
      role: 'assistant',
      content: 'Heading out.',
      toolCalls: [{ id: 'c1', name: 'travel', arguments: '{"target_poi":"sol_ice_field"}' }],
      createdAt: 1000,
    };
    const result: Message = {
      id: 't',
      role: 'tool',
      content:
        'Arrived at sol_ice_field after 2 tick(s), 2 fuel used. And a lot more text that will not fit in sixty columns.\ndashboard',
      toolCallId: 'c1',
      toolName: 'travel',
      createdAt: 2500,
      isError: false,
    };
    renderer.assistantMessage(assistant);
    renderer.toolResult(result);
    const line = lines.at(-1)!;
    expect(line.startsWith('  ✓ travel target_poi=sol_ice_field → Arrived')).toBe(true);
    expect(line).toContain('…');
    expect(displayWidth(line)).toBeLessThanOrEqual(59);
    // The result is shortened, not the duration: the line still ends with the time the call took.
    expect(line).toMatch(/… 1\.5s$/);
    expect(line).not.toContain('\u001b');
    expect(line).not.toContain('dashboard');
    // Wide enough, the line ends with the time the call took, measured from the stored timestamps.
    const wide: string[] = [];
    const roomy = new TranscriptRenderer({
      sink: { line: (text) => wide.push(text), write: () => {} },
      color: false,
      width: () => 300,
    });
    roomy.assistantMessage(assistant);
    roomy.toolResult(result);
    expect(wide.at(-1)).toMatch(/ 1\.5s$/);
  });

  it('draws a JSON answer (the /mcp face) by its sentence, else compacted on one line', () => {
    const shown: string[] = [];
    const wide = new TranscriptRenderer({
      sink: { line: (text) => shown.push(text), write: () => {} },
      color: false,
      width: () => 200,
    });
    const call = (id: string, name: string): Message => ({
      id: `a${id}`,
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name, arguments: '{}' }],
      createdAt: 0,
    });
    const answer = (id: string, name: string, content: string): Message => ({
      id: `t${id}`,
      role: 'tool',
      content,
      toolCallId: id,
      toolName: name,
      createdAt: 10,
      isError: false,
    });
    wide.assistantMessage(call('m', 'mine'));
    wide.toolResult(
      answer(
        'm',
        'mine',
        JSON.stringify({ resource_id: 'iron_ore', quantity: 7, message: 'Mined 7 Iron Ore.' }, null, 2),
      ),
    );
    expect(shown.at(-1)).toMatch(/✓ mine → Mined 7 Iron Ore\. /);
    wide.assistantMessage(call('s', 'get_status'));
    wide.toolResult(answer('s', 'get_status', JSON.stringify({ player: { credits: 150 } }, null, 2)));
    expect(shown.at(-1)).toContain('→ {"player":{"credits":150}}');
  });
});

describe('clipToWidth and displayWidth', () => {
  it('counts CJK as two cells and never cuts an escape code', async () => {
    const { clipToWidth } = await import('../../../internal/cli/text.js');
    expect(displayWidth('你好ab')).toBe(6);
    const clipped = clipToWidth('\u001b[32m你好你好你好\u001b[0m', 7);
    expect(displayWidth(clipped)).toBeLessThanOrEqual(7);
    expect(clipped.startsWith('\u001b[32m')).toBe(true);
    expect(clipped.endsWith('\u001b[0m')).toBe(true);
    expect(clipToWidth('short', 10)).toBe('short');
  });
});

describe('tool results use the terminal width', () => {
  const long = `Arrived at Vexuth Major Ice Field (vexuth_major_ice_field) after 3 tick(s). Fuel used: 2. ${'More words here. '.repeat(10)}`;
  const draw = (width?: number): string => {
    const lines: string[] = [];
    const renderer = new TranscriptRenderer({
      sink: { line: (text) => lines.push(text), write: (text) => lines.push(text) },
      color: false,
      ...(width ? { width: () => width } : {}),
    });
    renderer.assistantMessage({
      id: 'a',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c', name: 'travel', arguments: '{}' }],
      createdAt: 0,
    });
    renderer.toolResult({
      id: 't',
      role: 'tool',
      content: long,
      toolCallId: 'c',
      toolName: 'travel',
      createdAt: 10,
      isError: false,
    });
    return lines.at(-1)!;
  };

  it('shows more of a result on a wide terminal, never past its width, and 90 characters of it elsewhere', () => {
    const wide = draw(200);
    expect(displayWidth(wide)).toBeGreaterThan(150);
    expect(displayWidth(wide)).toBeLessThan(200);
    expect(wide).toContain('More words here.');
    const piped = draw();
    expect(piped).not.toContain('More words here. More words here. More words here.');
    expect(displayWidth(piped)).toBeLessThan(130);
  });
});

describe('a typed line is shown once', () => {
  it('draws "you ›" for piped chat, and leaves it to the terminal prompt that already shows it', () => {
    const piped: string[] = [];
    new TranscriptRenderer({
      sink: { line: (text) => piped.push(text), write: (text) => piped.push(text) },
      color: false,
    }).turnStart(1, { kind: 'user', text: 'hello' });
    expect(piped.filter((line) => line.includes('hello'))).toEqual(['you › hello']);
    const terminal: string[] = [];
    new TranscriptRenderer({
      sink: { line: (text) => terminal.push(text), write: (text) => terminal.push(text) },
      color: false,
      echoTyped: false,
    }).turnStart(1, {
      kind: 'user',
      text: 'hello',
    });
    expect(terminal).toEqual([]);
  });
});
