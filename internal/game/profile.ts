// The game profile: what kind of server this is (SpaceMolt's grouped /mcp/v2 face, its flat /mcp face, or a generic
// MCP game), detected from the server's name and tool list. The rest of Skipper asks the profile, never tool names:
// which op a call is, how to spell an op as a call (login, notifications, the captain's log), and how to read a
// result's text into a GameObservation, and what the game tells its captain (its guide: the system prompt's
// paragraph, lesson wordings, the status call). minimolt serves SpaceMolt's faces, so it is a spacemolt profile too
// (and gets SpaceMolt's guide, whatever it is called); its name is kept in `server`.
import { type GameGuide, type ToolResult, type ToolSpec } from '../shared/index.js';
import {
  OP_KINDS,
  SPACEMOLT_LESSONS,
  SPACEMOLT_PROMPT,
  detectFace,
  fromFaceCall,
  toFaceCall,
  type FaceId,
  type GameObservation,
  type GameOp,
  type OpArgs,
} from '../spacemolt/index.js';
import { isGrouped, type McpToolLike } from './classify.js';
import { readObservation } from './text/observe.js';

export type ProfileId = 'spacemolt-v2' | 'spacemolt-v1' | 'generic';

export interface GameProfile {
  readonly id: ProfileId;
  /** The server's own name (initialize's serverInfo.name), e.g. "minimolt". */
  readonly server: string | undefined;
  /** The server's own version (initialize's serverInfo.version), when it says one. */
  readonly serverVersion?: string;
  /** The SpaceMolt face the server speaks; undefined for a generic game. */
  readonly face: FaceId | undefined;
  /** The op a call is, when it is one Skipper knows. */
  opOf(name: string, args: Record<string, unknown>): GameOp | undefined;
  /** An op (Skipper's argument names) as this game's call; undefined when the game has no such tool. */
  callFor(op: GameOp, args?: OpArgs): { name: string; args: Record<string, unknown> } | undefined;
  /** What the game layer reads from a result's text; undefined for a generic game (text only). */
  read(op: GameOp | undefined, text: string, isError: boolean): GameObservation | undefined;
  /** True when the register call must carry a registration code (the real SpaceMolt's does). */
  needsRegistrationCode(spec: ToolSpec | undefined): boolean;
  /** What the game tells its captain: the system prompt's paragraph, lesson wordings, the status call. */
  readonly guide: GameGuide;
}

export interface DetectInput {
  serverName?: string | undefined;
  serverVersion?: string | undefined;
  instructions?: string | undefined;
  tools: readonly McpToolLike[];
}

const KNOWN_OPS = new Set(Object.keys(OP_KINDS));

function asOp(value: unknown): GameOp | undefined {
  const name = typeof value === 'string' ? value.toLowerCase() : '';
  return KNOWN_OPS.has(name) ? (name as GameOp) : undefined;
}

/** Which profile a server is: a grouped `spacemolt` tool (v2), SpaceMolt's flat tools (v1), else generic. */
export function detectProfileId(tools: readonly McpToolLike[]): ProfileId {
  const face = detectFace(
    tools.map((tool) => ({
      name: tool.name,
      inputSchema: tool.inputSchema as { properties?: Record<string, unknown> },
    })),
  );
  return face === 'v2' ? 'spacemolt-v2' : face === 'v1' ? 'spacemolt-v1' : 'generic';
}

export function detectProfile(input: DetectInput): GameProfile {
  const id = detectProfileId(input.tools);
  const face: FaceId | undefined = id === 'spacemolt-v2' ? 'v2' : id === 'spacemolt-v1' ? 'v1' : undefined;
  const server = input.serverName?.trim() || undefined;
  const tools = new Map(input.tools.map((tool) => [tool.name, tool]));
  const groupedNames = new Set(
    input.tools
      .filter((tool) => isGrouped(tool.inputSchema as Parameters<typeof isGrouped>[0]))
      .map((tool) => tool.name),
  );

  // Any call whose name (flat) or action (grouped) is one of Skipper's ops counts as that op: login anywhere gets
  // the password's care, even through a tool the faces table does not list.
  const looseOp = (name: string, args: Record<string, unknown>): GameOp | undefined =>
    groupedNames.has(name) ? asOp(args.action) : asOp(name);

  const serverVersion = input.serverVersion?.trim() || undefined;
  const callFor: GameProfile['callFor'] = (op, args = {}) => {
    if (face) {
      const call = toFaceCall(face, op, args);
      if (call && tools.has(call.name)) return call;
    }
    // A generic game: a flat tool of the op's own name, spelled like SpaceMolt's flat face (the common convention).
    const flat = toFaceCall('v1', op, args);
    return flat && tools.has(flat.name) && !groupedNames.has(flat.name) ? flat : undefined;
  };
  return {
    id,
    server,
    ...(serverVersion ? { serverVersion } : {}),
    face,
    opOf: (name, args) => (face ? fromFaceCall(face, name, args)?.op : undefined) ?? looseOp(name, args),
    callFor,
    guide: guideFor(face, server, callFor('get_status')),
    read: (op, text, isError) => (face ? readObservation(op, text, isError) : undefined),
    needsRegistrationCode: (spec) => {
      const properties = spec?.inputSchema.properties ?? {};
      if (!('registration_code' in properties)) return false;
      if (spec?.inputSchema.required?.includes('registration_code')) return true;
      // SpaceMolt (and minimolt, which plays it) requires one; a grouped schema cannot say so per action.
      return face !== undefined;
    },
  };
}

/** SpaceMolt's words for a server that speaks either of its faces (detected from its tools, not its name); a generic
 * game's paragraph names the server and leaves lessons to the loop's generic wording. */
function guideFor(
  face: FaceId | undefined,
  server: string | undefined,
  status: GameGuide['status'] | undefined,
): GameGuide {
  const prompt = face
    ? SPACEMOLT_PROMPT
    : `Game: ${server ?? 'an MCP game'}. Use the tools it offers; read their descriptions.`;
  return { prompt, lessons: face ? SPACEMOLT_LESSONS : {}, ...(status ? { status } : {}) };
}

/**
 * A result with what the profile read from its text as `data` (a generic game gives none: text only). A failed
 * call's code is the one fromCallResult worked out (MCP errors, JSON, prefixes, known wordings; the observation's
 * reader knows only SpaceMolt's wordings): it is kept in the observation, which is stored with the message, so every
 * later reader finds the very code the loop counted.
 */
export function withObservation(profile: GameProfile, op: GameOp | undefined, result: ToolResult): ToolResult {
  const data = profile.read(op, result.text, result.isError);
  if (data === undefined) return result;
  const code = result.code ?? data.error?.code;
  if (data.error && code) data.error = { ...data.error, code };
  return { ...result, data, ...(code ? { code } : {}) };
}
