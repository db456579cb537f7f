// The tool list a model is sent must fit its budget: tool schemas travel with every request, and a real game's
// flat tool list may hold ~206 tools (~11–12k tokens) — most of a 16k context. Past the budget the schemas are compacted
// (first sentence of each description, no per-field prose); past it still, the game's core tools are offered and the
// rest stay callable by name, listed on demand by the local `game_tools` tool (the model widens its own view).
import { type ToolResult, type ToolSpec } from '../shared/index.js';
import { ACCOUNT_TOOLS, CORE_TOOLS, PLAY_TOOLS } from '../game/index.js';
import type { LocalTool } from './dispatch.js';
import { firstSentence, leanDescription, leanSpec } from './tool-lean.js';
import { ESTIMATE_COUNTER, type TokenCounter } from './token-counter.js';

export const GAME_TOOLS_TOOL = 'game_tools';
const DESCRIPTION_CHARS = 200;
const FIELD_CHARS = 80;

export interface FittedTools {
  offered: ToolSpec[];
  /** Tools left out of the request (still callable by name). */
  hidden: ToolSpec[];
  /** Estimated tokens of the offered schemas. */
  tokens: number;
}

/** Tokens of the schemas as sent, measured by `counter` (the model's tokenizer; chars/4 by default). */
export function toolTokens(specs: readonly ToolSpec[], counter: TokenCounter = ESTIMATE_COUNTER): number {
  return counter.text(
    JSON.stringify(specs.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))),
  );
}

export function fitToolList(
  specs: readonly ToolSpec[],
  maxTokens: number,
  counter: TokenCounter = ESTIMATE_COUNTER,
): FittedTools {
  // Lean descriptions always (tool-lean.ts): every call stays valid, and the schemas go with every request.
  const lean = specs.map(leanSpec);
  const whole = toolTokens(lean, counter);
  if (whole <= maxTokens) return { offered: lean, hidden: [], tokens: whole };
  const compact = specs.map(compactSpec);
  const compactTokens = toolTokens(compact, counter);
  if (compactTokens <= maxTokens) return { offered: compact, hidden: [], tokens: compactTokens };
  // Core tools first (in the server's order), then the others while they fit; the listing tool's own schema counts.
  const ranked = [
    ...compact.filter((spec) => CORE_TOOLS.has(spec.name)),
    ...compact.filter((spec) => !CORE_TOOLS.has(spec.name)),
  ];
  const offered: ToolSpec[] = [];
  let used = toolTokens([gameToolsSpec()], counter);
  for (const spec of ranked) {
    const cost = toolTokens([spec], counter);
    if (used + cost > maxTokens && offered.length > 0) continue;
    offered.push(spec);
    used += cost;
  }
  const kept = new Set(offered.map((spec) => spec.name));
  return { offered, hidden: specs.filter((spec) => !kept.has(spec.name)), tokens: used };
}

/** A copy with short descriptions; the schema keeps every field, type, enum and `required` (calls stay valid). */
export function compactSpec(spec: ToolSpec): ToolSpec {
  // A grouped tool's description is its list of actions: keep each signature (lean), not just the first line.
  const description = spec.actions
    ? leanDescription(spec.description)
    : firstSentence(spec.description, DESCRIPTION_CHARS);
  return { ...spec, description, inputSchema: compactSchema(spec.inputSchema) as ToolSpec['inputSchema'] };
}

function compactSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compactSchema);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'description' && typeof inner === 'string') out[key] = firstSentence(inner, FIELD_CHARS);
    else out[key] = compactSchema(inner);
  }
  return out;
}

function gameToolsSpec(): ToolSpec {
  return {
    name: GAME_TOOLS_TOOL,
    description: 'List the game tools not in your tool list (call them by name).',
    inputSchema: {
      type: 'object',
      properties: { filter: { type: 'string', description: 'a word to match' } },
    },
    readOnly: true,
    kind: 'query',
  };
}

/** The local tool that lists the hidden tools with their arguments, so the model can call any of them. */
export function gameToolsTool(hidden: readonly ToolSpec[]): LocalTool {
  return {
    spec: gameToolsSpec(),
    run: async (args): Promise<ToolResult> => {
      const filter = typeof args.filter === 'string' ? args.filter.trim().toLowerCase() : '';
      const matches = hidden.filter(
        (spec) =>
          !filter || spec.name.toLowerCase().includes(filter) || spec.description.toLowerCase().includes(filter),
      );
      if (matches.length === 0)
        return { text: filter ? `No hidden game tool matches "${filter}".` : 'No hidden game tools.', isError: false };
      const lines = matches.slice(0, 60).map((spec) => {
        const fields = Object.keys(spec.inputSchema.properties ?? {});
        const required = new Set(spec.inputSchema.required ?? []);
        const args = fields.map((field) => (required.has(field) ? field : `${field}?`)).join(', ');
        return `${spec.name}(${args}) — ${firstSentence(spec.description, 120)}`;
      });
      const more = matches.length > lines.length ? `\n… ${matches.length - lines.length} more: narrow the filter.` : '';
      return { text: `${matches.length} game tool(s) callable by name:\n${lines.join('\n')}${more}`, isError: false };
    },
  };
}

/**
 * Only the tools a captain plays with (PLAY_TOOLS: account, status, map, travel, mining, trade), fitted as above; the
 * rest of a known game face (chat and the game's log, storage, anything unknown) stays callable by name and listed by
 * `game_tools`; so does the account tool while the captain is logged in (`loggedIn`: Skipper logs in again by code).
 * Schemas go with every request: on minimolt's /mcp/v2 the two groups left out cost ~480 o200k tokens a request, the
 * account tool ~420, their listing ~60 (`npm run bench -- tokens`). A list without any play tool (a game that is not
 * one of the known faces) is fitted whole.
 */
export function fitPlayTools(
  specs: readonly ToolSpec[],
  fit: { maxTokens: number; counter?: TokenCounter; loggedIn?: boolean },
): FittedTools {
  const { maxTokens, counter = ESTIMATE_COUNTER, loggedIn = false } = fit;
  const plays = (spec: ToolSpec): boolean => PLAY_TOOLS.has(spec.name) && !(loggedIn && ACCOUNT_TOOLS.has(spec.name));
  const play = specs.filter(plays);
  if (play.length === 0 || play.length === specs.length) return fitToolList(specs, maxTokens, counter);
  const listingTokens = toolTokens([gameToolsSpec()], counter);
  const fitted = fitToolList(play, Math.max(0, maxTokens - listingTokens), counter);
  const rest = specs.filter((spec) => !plays(spec));
  return { offered: fitted.offered, hidden: [...fitted.hidden, ...rest], tokens: fitted.tokens + listingTokens };
}

// A session's tool list does not change between turns: fit it once per list and budget, not every turn (a real
// game's flat list is ~200 schemas to measure and compact).
const fittedLists = new WeakMap<readonly ToolSpec[], Map<string, { fitted: FittedTools; listing?: LocalTool }>>();

/**
 * fitToolList (or fitPlayTools with `playOnly`), remembered for this exact list, budget, encoding and choice, with its
 * `game_tools` listing when some were hidden.
 */
export function fitToolListOnce(
  list: readonly ToolSpec[],
  specs: readonly ToolSpec[],
  fit: { maxTokens: number; counter?: TokenCounter; playOnly?: boolean; loggedIn?: boolean },
): { fitted: FittedTools; listing?: LocalTool } {
  const { maxTokens, counter = ESTIMATE_COUNTER, playOnly = false, loggedIn = false } = fit;
  let byBudget = fittedLists.get(list);
  if (!byBudget) {
    byBudget = new Map();
    fittedLists.set(list, byBudget);
  }
  const key = `${counter.encoding}:${maxTokens}:${playOnly}:${loggedIn}`;
  let entry = byBudget.get(key);
  if (!entry) {
    const fitted = playOnly
      ? fitPlayTools(specs, { maxTokens, counter, loggedIn })
      : fitToolList(specs, maxTokens, counter);
    entry = fitted.hidden.length > 0 ? { fitted, listing: gameToolsTool(fitted.hidden) } : { fitted };
    byBudget.set(key, entry);
  }
  return entry;
}
