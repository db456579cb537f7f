// The tool catalog: MCP tools mapped to our ToolSpec, each call classified as a query (free, parallel-safe, short
// timeout), a free action (changes something, spends no tick) or a mutation (one per tick, may block until arrival).
// A grouped tool (SpaceMolt /mcp/v2: one tool, an `action` argument) gets a kind per action. Order of evidence:
// the person's override, the kind the server's own tool list states (a `[mutation: …]` / `[query: …]` /
// `[free action: …]` label in a description, as minimolt writes it), the shipped SpaceMolt table (SpaceMolt-shaped
// servers only), the server's readOnlyHint, then the name.
import type { CallKind, JsonSchema, ToolSpec } from '../shared/index.js';
import { FLAT_KINDS, GROUPED_KINDS } from './catalog-kinds.js';

export interface McpToolLike {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean };
}

export interface ClassifyOptions {
  /** `"mine": "mutation"` for a tool, `"spacemolt.scan": "query"` for one action of a grouped tool. */
  overrides?: Record<string, CallKind>;
  /** Use the shipped SpaceMolt table (the server is SpaceMolt-shaped). */
  shipped?: boolean;
}

// Names that read without acting, and social writes that change something without spending a tick.
const QUERY_NAME =
  /^(get|view|list|find|search|read|query|show|check|browse|estimate|analyze|inspect|describe|lookup|help|info|status|whoami|map|version)(_|$)|_(list|status|info|quote|history)$/;
const FREE_NAME =
  /(^|_)(chat|say|whisper|message|messages|mail|note|notes|log|forum|petition|login|logout|register|auth)(_|$)/;

/** The kind a bare name suggests, for names no table knows. */
export function kindByName(name: string): CallKind {
  const lower = name.toLowerCase();
  if (QUERY_NAME.test(lower)) return 'query';
  if (FREE_NAME.test(lower)) return 'free';
  return 'mutation';
}

// `[mutation: one per tick…]`, `[query: free, no tick]`, `[free action: no tick]`: the label closes a description
// (flat tool) or one action's line of it (grouped tool: `- travel(id): Travel… [mutation: …]`).
const KIND_LABEL = /\[(mutation|query|free action)(?::[^\]]*)?\]\s*$/i;
const ACTION_LINE = /^\s*-\s*([a-z][a-z0-9_]*)\s*\(/i;

function labelKind(word: string): CallKind {
  const lower = word.toLowerCase();
  return lower === 'mutation' ? 'mutation' : lower === 'query' ? 'query' : 'free';
}

/** The kind a flat tool's description states at its end, if it states one. */
export function statedKind(description: string | undefined): CallKind | undefined {
  const match = KIND_LABEL.exec(description?.trim() ?? '');
  return match?.[1] ? labelKind(match[1]) : undefined;
}

/** The kind each action's line of a grouped tool's description states (`- name(…): … [kind: …]`). */
export function statedActionKinds(description: string | undefined): Record<string, CallKind> {
  const out: Record<string, CallKind> = {};
  for (const line of (description ?? '').split('\n')) {
    const action = ACTION_LINE.exec(line)?.[1];
    const kind = statedKind(line);
    if (action && kind) out[action] = kind;
  }
  return out;
}

/** True when the tool takes an `action` argument: one tool, many operations. */
export function isGrouped(schema: JsonSchema | undefined): boolean {
  return schema?.properties?.action !== undefined;
}

/** The values `action` may take, as far as the schema says (an enum), else none. */
export function schemaActions(schema: JsonSchema | undefined): string[] {
  const action = schema?.properties?.action as { enum?: unknown } | undefined;
  return Array.isArray(action?.enum) ? action.enum.filter((value): value is string => typeof value === 'string') : [];
}

/** The kind of a flat tool. */
export function classifyTool(tool: McpToolLike, options: ClassifyOptions = {}): CallKind {
  const override = options.overrides?.[tool.name];
  if (override) return override;
  const stated = statedKind(tool.description);
  if (stated) return stated;
  const shipped = options.shipped ? FLAT_KINDS.get(tool.name) : undefined;
  if (shipped) return shipped;
  const hint = tool.annotations?.readOnlyHint;
  if (typeof hint === 'boolean') return hint ? 'query' : kindByName(tool.name) === 'free' ? 'free' : 'mutation';
  return kindByName(tool.name);
}

/** The kind of each action of a grouped tool: the schema's enum, the actions the description labels and the shipped
 * table's actions. */
export function classifyActions(
  tool: McpToolLike,
  schema: JsonSchema,
  options: ClassifyOptions = {},
): Record<string, CallKind> {
  const shipped = options.shipped ? GROUPED_KINDS[tool.name] : undefined;
  const stated = statedActionKinds(tool.description);
  const names = new Set([...schemaActions(schema), ...Object.keys(stated), ...(shipped?.keys() ?? [])]);
  const wholeTool = options.overrides?.[tool.name];
  const allRead = tool.annotations?.readOnlyHint === true;
  const out: Record<string, CallKind> = {};
  for (const action of names) {
    out[action] =
      options.overrides?.[`${tool.name}.${action}`] ??
      wholeTool ??
      stated[action] ??
      shipped?.get(action) ??
      (allRead ? 'query' : kindByName(action));
  }
  return out;
}

export function toToolSpec(tool: McpToolLike, options: ClassifyOptions = {}): ToolSpec {
  const schema =
    tool.inputSchema && typeof tool.inputSchema === 'object'
      ? (tool.inputSchema as JsonSchema)
      : ({ type: 'object', properties: {} } satisfies JsonSchema);
  const base = { name: tool.name, description: tool.description ?? '', inputSchema: schema };
  // Some flat v1 tools (battle, facility, station) take an `action` too; the table knows them as one call each.
  const knownFlat = options.shipped === true && FLAT_KINDS.has(tool.name);
  if (isGrouped(schema) && !knownFlat) {
    const actions = classifyActions(tool, schema, options);
    const kinds = Object.values(actions);
    return { ...base, readOnly: kinds.length > 0 && kinds.every((kind) => kind === 'query'), actions };
  }
  const kind = classifyTool(tool, options);
  return { ...base, readOnly: kind === 'query', kind };
}
