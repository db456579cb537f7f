// What `skipper doctor` finds, as data: a game's tools/list compared with what Skipper will send it. For each op of
// Skipper's faces table (internal/spacemolt/faces.ts): is its tool (and v2 action) there, is every parameter Skipper
// fills declared; which actions the server offers that the shipped catalogue does not know (and how Skipper will
// treat them), which the catalogue knows that the server no longer offers; and a verdict. Pure: the CLI connects and
// prints.
import { type CallKind, type JsonSchema, callKind } from '../shared/index.js';
import { FACES, type FaceId, type GameOp } from '../spacemolt/index.js';
import { GROUPED_KINDS } from './catalog-kinds.js';
import { isGrouped, schemaActions, statedActionKinds, toToolSpec, type McpToolLike } from './classify.js';
import { detectProfile, type ProfileId } from './profile.js';

/** The ops the built-in captain cannot play without: a problem with one of these means Skipper cannot play. The
 * others (market view, notifications, the captain's log, chat, refuel, repair…) only lose a convenience. */
export const ESSENTIAL_OPS: ReadonlySet<GameOp> = new Set<GameOp>([
  'register',
  'login',
  'get_status',
  'get_system',
  'undock',
  'dock',
  'travel',
  'jump',
  'mine',
  'sell',
]);

export interface ParamCheck {
  /** Skipper's own name for the argument. */
  ours: string;
  /** The name Skipper sends on this face. */
  sent: string;
  declared: boolean;
  /** A declared parameter that looks like the one Skipper sends, renamed (`poi_id` for `id`). */
  renamedTo?: string;
}

export interface OpCheck {
  op: GameOp;
  tool: string;
  action?: string;
  essential: boolean;
  /** `unlisted`: a grouped tool that names none of its actions (no enum, no labelled lines): cannot be checked. */
  status: 'ok' | 'missing-tool' | 'missing-action' | 'unlisted';
  params: ParamCheck[];
  kind: CallKind;
}

export interface ActionNote {
  tool: string;
  action: string;
  kind: CallKind;
  /** Where the kind comes from: the server's own label, or a guess from the name. */
  from: 'server' | 'name';
}

export interface DoctorReport {
  server: { name?: string; version?: string };
  profile: ProfileId;
  face?: FaceId;
  toolCount: number;
  /** v2: the actions the server names across its grouped tools. */
  actionCount: number;
  ops: OpCheck[];
  /** Actions the server offers that the shipped catalogue does not know. */
  newActions: ActionNote[];
  /** Actions the shipped catalogue knows on a tool the server serves, which the server no longer offers. */
  removedActions: Array<{ tool: string; action: string }>;
  problems: string[];
  warnings: string[];
  canPlay: boolean;
}

export interface DoctorInput {
  serverName?: string | undefined;
  serverVersion?: string | undefined;
  tools: readonly McpToolLike[];
}

const schemaOf = (tool: McpToolLike): JsonSchema =>
  tool.inputSchema && typeof tool.inputSchema === 'object'
    ? (tool.inputSchema as JsonSchema)
    : { type: 'object', properties: {} };

// `- travel(id, quantity?): …`: the per-action signature a grouped description may carry (minimolt writes one).
const SIGNATURE = /^\s*-\s*([a-z][a-z0-9_]*)\s*\(([^)]*)\)/i;

/** Per action, the parameter names its description line declares; empty when the description has no signatures. */
export function describedParams(description: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of (description ?? '').split('\n')) {
    const match = SIGNATURE.exec(line);
    if (!match?.[1]) continue;
    const names = (match[2] ?? '')
      .split(',')
      .map((name) => name.trim().replace(/\?$/, ''))
      .filter(Boolean);
    out.set(match[1], names);
  }
  return out;
}

/** The declared parameter that most likely is `sent` renamed: one whose name contains it as a `_` word
 * (`poi_id` for `id`, `target_system` for `target`) or the other way round. */
export function renameCandidate(sent: string, declared: readonly string[]): string | undefined {
  const words = (name: string): string[] => name.split('_');
  return declared.find((name) => name !== sent && (words(name).includes(sent) || words(sent).includes(name)));
}

/** The actions a grouped tool names: its schema's enum, else its labelled or signed description lines. */
function offeredActions(tool: McpToolLike): string[] {
  const fromSchema = schemaActions(schemaOf(tool));
  if (fromSchema.length > 0) return fromSchema;
  return [
    ...new Set([...Object.keys(statedActionKinds(tool.description)), ...describedParams(tool.description).keys()]),
  ];
}

function checkOp(options: {
  op: GameOp;
  face: FaceId;
  tools: ReadonlyMap<string, McpToolLike>;
  kindOf: (tool: string, args: Record<string, unknown>) => CallKind;
}): OpCheck {
  const { op, face, tools } = options;
  const spelled = FACES[face][op];
  if (!spelled) throw new Error(`no spelling of ${op} on ${face}`);
  const base = {
    op,
    tool: spelled.tool,
    ...(spelled.action ? { action: spelled.action } : {}),
    essential: ESSENTIAL_OPS.has(op),
  };
  const kind = options.kindOf(spelled.tool, spelled.action ? { action: spelled.action } : {});
  const tool = tools.get(spelled.tool);
  const sentNames = Object.entries(spelled.params);
  if (!tool) return { ...base, status: 'missing-tool', params: [], kind };
  let declared = Object.keys(schemaOf(tool).properties ?? {}).filter((name) => name !== 'action');
  let status: OpCheck['status'] = 'ok';
  if (spelled.action) {
    const actions = offeredActions(tool);
    if (actions.length === 0) status = 'unlisted';
    else if (!actions.includes(spelled.action)) return { ...base, status: 'missing-action', params: [], kind };
    // A per-action signature is sharper than the grouped schema, which joins every action's parameters.
    const signed = describedParams(tool.description).get(spelled.action);
    if (signed) declared = signed;
  }
  const params = sentNames.map(([ours, sent]): ParamCheck => {
    if (declared.includes(sent)) return { ours, sent, declared: true };
    const renamedTo = renameCandidate(sent, declared);
    return { ours, sent, declared: false, ...(renamedTo ? { renamedTo } : {}) };
  });
  return { ...base, status, params, kind };
}

function where(check: { tool: string; action?: string }): string {
  return check.action ? `${check.tool} ${check.action}` : check.tool;
}

/** One sentence per problem an op has, or none. */
export function opProblems(check: OpCheck): string[] {
  if (check.status === 'missing-tool') return [`${check.op}: the server has no tool ${check.tool}`];
  if (check.status === 'missing-action') return [`${check.op}: ${check.tool} has no action ${check.action}`];
  return check.params
    .filter((param) => !param.declared)
    .map((param) =>
      param.renamedTo
        ? `${check.op}: ${where(check)} takes ${param.renamedTo}, not ${param.sent} (renamed?)`
        : `${check.op}: ${where(check)} does not declare ${param.sent}`,
    );
}

export function checkGame(input: DoctorInput): DoctorReport {
  const profile = detectProfile({ serverName: input.serverName, tools: input.tools });
  const shipped = profile.id !== 'generic';
  const tools = new Map(input.tools.map((tool) => [tool.name, tool]));
  const specs = new Map(input.tools.map((tool) => [tool.name, toToolSpec(tool, { shipped })]));
  const kindOf = (name: string, args: Record<string, unknown>): CallKind => callKind(specs.get(name), args);
  const grouped = input.tools.filter((tool) => isGrouped(schemaOf(tool)));
  const report: DoctorReport = {
    server: {
      ...(input.serverName ? { name: input.serverName } : {}),
      ...(input.serverVersion ? { version: input.serverVersion } : {}),
    },
    profile: profile.id,
    ...(profile.face ? { face: profile.face } : {}),
    toolCount: input.tools.length,
    actionCount: grouped.reduce((sum, tool) => sum + offeredActions(tool).length, 0),
    ops: [],
    newActions: [],
    removedActions: [],
    problems: [],
    warnings: [],
    canPlay: true,
  };
  if (!profile.face) {
    report.warnings.push(
      'not a SpaceMolt face: the built-in autopilot cannot fly it; a language model (--model) plays it from the tool list',
    );
    return report;
  }
  for (const op of Object.keys(FACES[profile.face]) as GameOp[]) {
    const check = checkOp({ op, face: profile.face, tools, kindOf });
    report.ops.push(check);
    const found = opProblems(check);
    (check.essential ? report.problems : report.warnings).push(...found);
    if (check.status === 'unlisted')
      report.warnings.push(
        `${check.op}: ${check.tool} does not list its actions; ${check.action} could not be checked`,
      );
  }
  if (profile.face === 'v2') {
    for (const tool of grouped) {
      const known = GROUPED_KINDS[tool.name];
      const offered = offeredActions(tool);
      const stated = statedActionKinds(tool.description);
      for (const action of offered) {
        if (known?.has(action)) continue;
        report.newActions.push({
          tool: tool.name,
          action,
          kind: kindOf(tool.name, { action }),
          from: stated[action] ? 'server' : 'name',
        });
      }
      if (!known || offered.length === 0) continue;
      for (const action of known.keys())
        if (!offered.includes(action)) report.removedActions.push({ tool: tool.name, action });
    }
  }
  report.canPlay = report.problems.length === 0;
  return report;
}

/** What Skipper does with a call of this kind, in a few words. */
export function treatment(kind: CallKind): string {
  if (kind === 'mutation') return 'one at a time, waits up to 10 minutes (a tick-taking action)';
  if (kind === 'free') return 'one at a time, short timeout (changes something, no tick)';
  return 'may run in parallel, short timeout (a read)';
}

/** The final line: "Skipper can play here" or "Skipper cannot play here: …". */
export function verdictLine(report: DoctorReport): string {
  if (report.canPlay)
    return report.warnings.length > 0
      ? `Skipper can play here (with ${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'})`
      : 'Skipper can play here';
  const [first, ...rest] = report.problems;
  return `Skipper cannot play here: ${first ?? 'unknown problem'}${rest.length > 0 ? ` (and ${rest.length} more)` : ''}`;
}
