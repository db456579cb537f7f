// `empire` in the fleet file: checked against the game's empires with a did-you-mean, a captain's over the defaults,
// and carried to the built-in autopilot, which registers a new account with it.
import { describe, expect, it } from 'vitest';
import { parseFleetText } from '../../../internal/fleet/fleet-file.js';
import { createProvider, resolveModel } from '../../../internal/provider/index.js';
import { Conversation, TOOLS, argsOf, errorData, opsOf } from '../provider/builtin/conversation.js';
import { problemOf } from './fleet-problem.js';

describe('empire in the fleet file', () => {
  it('takes a captain’s empire over the defaults, and leaves it unset when neither says', () => {
    const spec = parseFleetText(
      ['defaults:', '  empire: voidborn', 'captains:', '  - name: ann', '  - name: bob', '    empire: crimson'].join(
        '\n',
      ),
      'fleet.yaml',
    );
    expect(spec.captains.map((c) => [c.name, c.empire])).toEqual([
      ['ann', 'voidborn'],
      ['bob', 'crimson'],
    ]);
    expect(parseFleetText('captains:\n  - name: cid\n', 'fleet.yaml').captains[0]?.empire).toBeUndefined();
  });

  it('names the captain, the empires and the closest one for a misspelt empire', () => {
    const message = problemOf('captains:\n  - name: ann\n    empire: solarain\n');
    expect(message).toContain(
      'fleet.yaml: captain "ann": empire must be one of the game\'s empires: solarian, voidborn',
    );
    expect(message).toContain('(got "solarain") — did you mean solarian?');
    // Nothing close: the list alone.
    expect(problemOf('defaults:\n  empire: 7\ncaptains:\n  - name: ann\n')).toMatch(
      /defaults: empire must be one of the game's empires: .*outerrim \(got 7\)$/,
    );
    // A misspelt field name still gets its own did-you-mean.
    expect(problemOf('captains:\n  - name: ann\n    empir: nebula\n')).toContain('did you mean empire?');
  });
});

describe('empire reaches the autopilot’s registration', () => {
  it('registers with the fleet file’s empire (solarian when none)', async () => {
    for (const [empire, expected] of [
      ['nebula', 'nebula'],
      [undefined, 'solarian'],
    ] as const) {
      const provider = createProvider(resolveModel({ model: 'builtin/autopilot' }, {}), {
        seed: 3,
        username: 'ann_miner',
        ...(empire ? { empire } : {}),
      });
      const conversation = new Conversation().user();
      const first = await provider.complete({ messages: structuredClone(conversation.messages), tools: TOOLS });
      conversation.reply(first).answerCall(first.message.toolCalls[0]!, errorData('not_authenticated'));
      const second = await provider.complete({ messages: structuredClone(conversation.messages), tools: TOOLS });
      expect(opsOf(second)).toEqual(['register']);
      expect(argsOf(second)).toEqual({ username: 'ann_miner', empire: expected });
    }
  });
});
