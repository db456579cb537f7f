// Which of SpaceMolt's two MCP faces the game offers (flat v1 tools or grouped v2 tools with an `action`), read from
// the tool list alone, and the one place the built-in providers turn their ops (Skipper's names for game commands)
// into that face's tool calls and back. Policies never see a tool name: a name list would fit one face only.
import type { CallKind, ToolCall, ToolSpec } from '../../shared/index.js';
import type { FaceId, GameOp, OpArgs } from '../../spacemolt/index.js';
import { isRecord, argumentsOf, callKind } from '../../shared/index.js';
import { FACES, OP_KINDS, detectFace, fromFaceCall, toFaceCall } from '../../spacemolt/index.js';

export type CanAutopilot = { ok: true; face: FaceId } | { ok: false; reason: string };

/** The values a grouped tool accepts for `action`: its per-action kinds, else the schema's enum; undefined if neither. */
export function actionsOf(spec: ToolSpec): string[] | undefined {
  if (spec.actions) return Object.keys(spec.actions);
  const action = spec.inputSchema.properties?.action;
  if (isRecord(action) && Array.isArray(action.enum))
    return action.enum.filter((v): v is string => typeof v === 'string');
  return undefined;
}

/** Whether the autopilot can play a game offering `tools` (the CLI refuses to start it otherwise). */
export function canAutopilot(tools: readonly ToolSpec[]): CanAutopilot {
  const face = detectFace(tools);
  // It mines and travels: a SpaceMolt-shaped game without those is not one it can play.
  const offers = (op: GameOp): boolean => {
    const spelled = face ? toFaceCall(face, op) : undefined;
    const spec = spelled ? tools.find((tool) => tool.name === spelled.name) : undefined;
    if (!spec) return false;
    const action = spelled?.args.action;
    return typeof action !== 'string' || (actionsOf(spec) ?? [action]).includes(action);
  };
  if (face && offers('mine') && offers('travel')) return { ok: true, face };
  return {
    ok: false,
    reason:
      'the game offers neither SpaceMolt face the autopilot plays (flat `mine` and `travel` tools, or a grouped ' +
      '`spacemolt` tool with actions)',
  };
}

export function parseArgs(call: ToolCall): Record<string, unknown> {
  return argumentsOf(call.arguments);
}

/** A tool call read back as an op on either face (v1 and v2 tool names never collide, so no face is needed). */
export function opOfCall(name: string, args: Record<string, unknown>): { op: GameOp; args: OpArgs } | undefined {
  return fromFaceCall('v1', name, args) ?? fromFaceCall('v2', name, args);
}

/** The game's tools seen through one face: which ops it offers, how to spell them, what each call costs. */
export class GameFace {
  readonly face: FaceId;
  private readonly specs: Map<string, ToolSpec>;

  constructor(face: FaceId, tools: readonly ToolSpec[]) {
    this.face = face;
    this.specs = new Map(tools.map((t) => [t.name, t]));
  }

  /** The face's tool for `op` exists and, for a grouped tool that lists its actions, offers the action. */
  has(op: GameOp): boolean {
    const spelled = FACES[this.face][op];
    const spec = spelled ? this.specs.get(spelled.tool) : undefined;
    if (!spelled || !spec) return false;
    if (spelled.action === undefined) return true;
    const actions = actionsOf(spec);
    return actions === undefined || actions.includes(spelled.action);
  }

  /** The face's call for an op with Skipper's argument names; arguments the tool's schema does not declare are
   * dropped too (the real server rejects unknown parameters). */
  spell(op: GameOp, args: OpArgs = {}): { name: string; args: Record<string, unknown> } | undefined {
    const call = toFaceCall(this.face, op, args);
    if (!call) return undefined;
    const declared = this.specs.get(call.name)?.inputSchema.properties;
    if (!declared) return call;
    const kept = Object.fromEntries(Object.entries(call.args).filter(([key]) => key === 'action' || key in declared));
    return { name: call.name, args: kept };
  }

  /** What a call costs: the op's kind when it is one of ours, else what the game layer said of the tool. */
  kindOf(call: ToolCall): CallKind {
    const args = parseArgs(call);
    const op = fromFaceCall(this.face, call.name, args)?.op;
    if (op) return OP_KINDS[op];
    return callKind(this.specs.get(call.name), args);
  }

  opOf(call: ToolCall): GameOp | undefined {
    return fromFaceCall(this.face, call.name, parseArgs(call))?.op;
  }
}
