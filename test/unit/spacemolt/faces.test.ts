// Reading a face's call back to an op (fromFaceCall) is the table read backwards: every spelling the table writes
// reads back as its op with Skipper's argument names, and a call the table does not spell reads as nothing.
import { describe, expect, it } from 'vitest';
import { FACES, fromFaceCall, toFaceCall, type FaceId, type GameOp } from '../../../internal/spacemolt/index.js';

const faces: FaceId[] = ['v1', 'v2'];

describe('fromFaceCall', () => {
  it('reads every op each face spells back as that op, with its arguments under our names', () => {
    for (const face of faces) {
      for (const op of Object.keys(FACES[face]) as GameOp[]) {
        const params = Object.keys(FACES[face][op]?.params ?? {});
        const ours = Object.fromEntries(params.map((name, index) => [name, `value-${index}`]));
        const call = toFaceCall(face, op, ours);
        expect(call, `${face} ${op}`).toBeDefined();
        if (!call) continue;
        expect(fromFaceCall(face, call.name, call.args), `${face} ${op}`).toEqual({ op, args: ours });
      }
    }
  });

  it('reads nothing for a tool or an action the face does not spell, or the other face’s spelling', () => {
    expect(fromFaceCall('v1', 'no_such_tool', {})).toBeUndefined();
    expect(fromFaceCall('v2', 'spacemolt', { action: 'no_such_action' })).toBeUndefined();
    expect(fromFaceCall('v2', 'spacemolt', {})).toBeUndefined();
    expect(fromFaceCall('v2', 'spacemolt', { action: 42 })).toBeUndefined();
    expect(fromFaceCall('v2', 'mine', {})).toBeUndefined();
    expect(fromFaceCall('v1', 'spacemolt', { action: 'mine' })).toBeUndefined();
  });

  it('reads a v1 call whatever its `action` argument says, and drops arguments the op does not take', () => {
    expect(fromFaceCall('v1', 'mine', { action: 'travel' })).toEqual({ op: 'mine', args: {} });
    expect(fromFaceCall('v1', 'travel', { target_poi: 'sol_belt', extra: 1 })).toEqual({
      op: 'travel',
      args: { target: 'sol_belt' },
    });
    expect(fromFaceCall('v2', 'spacemolt', { action: 'sell', id: 'iron_ore', quantity: 3, x: 1 })).toEqual({
      op: 'sell',
      args: { item_id: 'iron_ore', quantity: 3 },
    });
  });
});
