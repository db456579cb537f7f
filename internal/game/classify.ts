// The tool catalog: MCP tools mapped to our ToolSpec, each classified as a query (free, parallel-safe, short
// timeout) or a mutation (one per tick, may block until arrival).
import type { JsonSchema, ToolSpec } from '../shared/index.js';

export type ToolKind = 'query' | 'mutation';

export interface McpToolLike {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean };
}

// For servers that send no annotations (SpaceMolt's MCP often does not): names that read without acting.
const QUERY_PREFIXES = ['get_', 'view_', 'find_', 'list_', 'search_', 'read_', 'query_', 'show_', 'check_'];
const QUERY_NAMES = new Set(['help', 'captains_log_list', 'status', 'map', 'whoami']);

export function classifyTool(tool: McpToolLike, overrides?: Record<string, ToolKind>): ToolKind {
  const override = overrides?.[tool.name];
  if (override) return override;
  const hint = tool.annotations?.readOnlyHint;
  if (typeof hint === 'boolean') return hint ? 'query' : 'mutation';
  const name = tool.name.toLowerCase();
  if (QUERY_NAMES.has(name) || QUERY_PREFIXES.some((prefix) => name.startsWith(prefix))) return 'query';
  return 'mutation';
}

export function toToolSpec(tool: McpToolLike, overrides?: Record<string, ToolKind>): ToolSpec {
  const schema =
    tool.inputSchema && typeof tool.inputSchema === 'object'
      ? (tool.inputSchema as JsonSchema)
      : ({ type: 'object', properties: {} } satisfies JsonSchema);
  return {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: schema,
    readOnly: classifyTool(tool, overrides) === 'query',
  };
}
