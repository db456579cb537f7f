// The session's picture of the ship (status line, snapshots) through the real server's words: a status that names no
// POI in another system never keeps the last system's POI (snapshots once paired `vexuth_major / sol_central`), and
// a mine whose answer states no status moves the hold (the status line once froze at `cargo 0/70`).
import { describe, expect, it } from 'vitest';
import { readObservation } from '../../../internal/game/index.js';
import { CANCELLED_TEXT } from '../../../internal/llm/index.js';
import type { Message, ToolCall } from '../../../internal/shared/index.js';
import { ShipPicture, pictureOf } from '../../../internal/session/ship-picture.js';
import type { GameOp } from '../../../internal/spacemolt/index.js';

const DOCKED_IN_SOL = [
  'Nova [solarian] | 150cr | Sol',
  'Ship: Theoria (theoria) | Hull: 100/100 | Speed: 2',
  'Fuel: 100/100 | Cargo: 0/70',
  'Docked at: sol_central',
  'Security: High Security (active police patrols)',
  'Connections: alpha_drift, vexuth_major',
].join('\n');

const UNDOCKED_IN_VEXUTH = [
  'Nova [solarian] | 150cr | Vexuth Major',
  'Ship: Theoria (theoria) | Hull: 100/100 | Speed: 2',
  'Fuel: 90/100 | Cargo: 0/70',
  'Security: Medium Security (regular police patrols)',
  'Connections: galira_reach',
].join('\n');

let n = 0;
/** One call on the v2 face and its result, the observation read from the text as the game layer would. */
function exchange(
  op: GameOp,
  text: string,
  args: Record<string, unknown> = {},
  isError = false,
  synthetic = false,
): Message[] {
  n += 1;
  const call: ToolCall = { id: `c${n}`, name: 'spacemolt', arguments: JSON.stringify({ action: op, ...args }) };
  return [
    { id: `a${n}`, role: 'assistant', content: '', toolCalls: [call], createdAt: n },
    {
      id: `t${n}`,
      role: 'tool',
      content: text,
      toolCallId: call.id,
      toolName: 'spacemolt',
      // The loop's own `cancelled` answer carries no observation: only its text.
      ...(synthetic ? {} : { data: readObservation(op, text, isError) }),
      ...(isError ? { isError: true } : {}),
      createdAt: n,
    },
  ];
}

describe('the session picture of the ship', () => {
  it('never pairs a system with the POI of another system', () => {
    const messages = [
      ...exchange('get_status', DOCKED_IN_SOL),
      ...exchange('jump', 'Jumped to Vexuth Major (vexuth_major) after 6 tick(s).', { id: 'vexuth_major' }),
      ...exchange('get_status', UNDOCKED_IN_VEXUTH),
    ];
    const state = pictureOf(messages, 'v2').state();
    expect(state).toMatchObject({ systemId: 'vexuth_major', poiId: null, docked: false, location: 'Vexuth Major' });
    // Before the jump: docked at Sol Central, in Sol.
    expect(pictureOf(messages.slice(0, 2), 'v2').state()).toMatchObject({
      systemId: 'sol',
      poiId: 'sol_central',
      docked: true,
    });
  });

  it('moves the hold with each mine whose answer states no status', () => {
    const messages = [
      ...exchange('get_status', DOCKED_IN_SOL),
      ...exchange('undock', 'Undocked from Sol Central.'),
      ...exchange('travel', 'Arrived at Sol Belt (sol_belt) after 2 tick(s). Fuel used: 2.', { id: 'sol_belt' }),
      ...exchange('mine', 'Mined 7 Iron Ore (iron_ore). Deposit remaining: 900.'),
      ...exchange('mine', 'Mined 6 Iron Ore (iron_ore). Deposit remaining: 894.'),
    ];
    expect(pictureOf(messages, 'v2').state()).toMatchObject({
      cargoUsed: 13,
      fuel: 98,
      poiId: 'sol_belt',
      docked: false,
    });
  });

  it('leaves the POI unknown after a travel the turn cut off, until an answer says where the ship is', () => {
    const picture = new ShipPicture('v2');
    const feed = (messages: Message[]): void => {
      const [assistant, tool] = messages as [Message, Message];
      picture.observe({ call: assistant.toolCalls?.[0], message: tool, at: tool.createdAt });
    };
    feed(exchange('get_status', DOCKED_IN_SOL));
    feed(exchange('travel', CANCELLED_TEXT, { id: 'sol_belt' }, true, true));
    expect(picture.state()).toMatchObject({ systemId: 'sol', poiId: null });
    expect(picture.state()?.docked).toBeUndefined();
    feed(exchange('travel', 'Error: You are already at sol_belt.', { id: 'sol_belt' }, true));
    expect(picture.state()).toMatchObject({ systemId: 'sol', poiId: 'sol_belt' });
  });
});
