// Which calls are actions (tick-costing mutations), asked of the game layer: the autoplay summary classifies live
// calls against the game's tool list; `skipper report` classifies stored calls the same way, against the tool list
// the session's requests recorded, and falls back on what the game layer left in the stored result (the op it read)
// or on its shipped catalogue — never on a list of names of its own.
import { toToolSpec } from '../game/index.js';
import { type CallKind, type ToolSpec, callKind } from '../shared/index.js';
import { OP_KINDS, observationOf } from '../spacemolt/index.js';

/** Whether a call is a tick-costing action. */
export type IsAction = (name: string, args: Record<string, unknown>) => boolean;

/** isAction for a tool list: a call is an action when the game layer classified it (per action) as a mutation. */
export function actionClassifier(tools: readonly ToolSpec[]): IsAction {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return (name, args) => byName.has(name) && callKind(byName.get(name), args) === 'mutation';
}

/** A call read back from the store: its tool, its arguments and the data stored with its result. */
export interface StoredCall {
  name: string;
  args: Record<string, unknown>;
  data?: unknown;
}

/**
 * The kind of stored calls, by the best evidence there is: the session's own tool list (as its requests recorded
 * it: the game layer's classification, with the server's hints and the person's overrides), then the op the game
 * layer read into the result (calls of tools the list did not offer, sessions recorded before the request log),
 * then the game layer's shipped catalogue for a bare call (grouped when it has an `action`), then its name rule.
 */
export function storedCallKinds(tools: readonly ToolSpec[]): (call: StoredCall) => CallKind {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return ({ name, args, data }) => {
    const spec = byName.get(name);
    if (spec) return callKind(spec, args);
    const { op } = observationOf(data);
    if (op) return OP_KINDS[op];
    return callKind(catalogueSpec(name, args), args);
  };
}

function catalogueSpec(name: string, args: Record<string, unknown>): ToolSpec {
  const action = typeof args.action === 'string' ? args.action : undefined;
  // The stored call is all there is of the tool: its action stands for the schema's enum.
  const inputSchema =
    action === undefined ? undefined : { type: 'object', properties: { action: { type: 'string', enum: [action] } } };
  return toToolSpec({ name, ...(inputSchema ? { inputSchema } : {}) }, { shipped: true });
}
