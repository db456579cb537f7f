// builtin/autopilot: a non-LLM captain behind the Provider interface. It reads the tool results in the context it is
// given, keeps what it learned (per session, by message id), and answers like a model: tool calls with a one-line
// rationale, then a one-line summary to end the turn. Deterministic given its seed.
import type {
  CompletionRequest,
  CompletionResponse,
  EmpireId,
  Message,
  Provider,
  ToolCall,
} from '../../shared/index.js';
import { throwIfAborted } from '../../shared/index.js';
import { CallIds, FREE_ACTIONS, currentTurn, lastRoundResults, reply } from './common.js';
import { decideExplore, goalText, isExploreGoal } from './explore.js';
import { Knowledge, errorCode } from './knowledge.js';
import { createPolicyState, decide, mutationKey, type Decision, type PolicyState, type TurnView } from './policy.js';
import { createRng, randomSeed, type Rng } from './rng.js';
import { summarizeTurn } from './summary.js';

export interface AutopilotOptions {
  /** Makes the run reproducible (username, call ids, tie-breaks); a random one when absent. */
  seed?: number;
  /** Username to register with; `captain_<6 hex>` from the seed by default. */
  username?: string;
  empire?: EmpireId;
}

/** Errors after which the turn is better ended than continued. */
const END_TURN_ON: Record<string, string> = {
  rate_limited: 'The game is rate-limiting us; pausing until next turn.',
  action_pending: 'An action is still pending; continuing next turn.',
  in_transit: 'Still in transit; continuing next turn.',
};
const MAX_CONSECUTIVE_ERRORS = 3;

export class AutopilotProvider implements Provider {
  readonly id = 'builtin/autopilot';
  private readonly knowledge = new Knowledge();
  private readonly state: PolicyState = createPolicyState();
  private readonly rng: Rng;
  private readonly ids: CallIds;
  private readonly empire: EmpireId;
  private readonly baseUsername: string | undefined;
  private username: string;
  private usernameAttempts = 0;
  /** Set by not_authenticated or a refused register; cleared by any result carrying a dashboard. */
  private authNeeded = false;

  constructor(options: AutopilotOptions = {}) {
    const seed = options.seed ?? randomSeed();
    this.rng = createRng(seed);
    this.ids = new CallIds(createRng(seed + 7919));
    this.empire = options.empire ?? 'solarian';
    this.baseUsername = options.username;
    this.username = options.username ?? `captain_${this.rng.hex(6)}`;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    throwIfAborted(request.signal);
    const calls = new Map<string, ToolCall>();
    for (const message of request.messages) for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    for (const message of this.knowledge.ingest(request.messages)) this.learnFrom(message, calls);

    const turn = currentTurn(request.messages);
    const tools = new Set(request.tools.map((t) => t.name));
    const mutations = new Set(request.tools.filter((t) => !t.readOnly && !FREE_ACTIONS.has(t.name)).map((t) => t.name));
    // The goal picks the policy: explore mode when it asks to explore / visit systems, mining otherwise.
    const policy = isExploreGoal(goalText(request.messages)) ? decideExplore : decide;
    const decision = this.authDecision(tools) ?? this.turnGuard(turn) ?? policy({
      knowledge: this.knowledge,
      state: this.state,
      turn: turnView(turn, mutations),
      tools,
    });

    if (decision.kind === 'end') {
      // Ending on the action budget: look one step ahead so the summary says what really comes next.
      if (decision.reason === '') {
        policy({ knowledge: this.knowledge, state: this.state, turn: { ...turnView(turn, mutations), mutations: 0 }, tools });
      }
      const content = summarizeTurn({ turn, reason: decision.reason, intent: this.state.intent });
      return reply({ request, model: this.id, content, toolCalls: [] });
    }
    const ids = this.ids.make(request.messages, decision.calls.length);
    const toolCalls = decision.calls.map((call, i) => ({
      id: ids[i] as string,
      name: call.name,
      arguments: JSON.stringify(call.args),
    }));
    return reply({ request, model: this.id, content: decision.rationale, toolCalls });
  }

  /** Updates auth and policy state from one new tool result. */
  private learnFrom(message: Message, calls: Map<string, ToolCall>): void {
    const code = errorCode(message);
    const data = message.data as { player?: unknown } | undefined;
    if (!message.isError && data?.player !== undefined) this.authNeeded = false;
    if (code === 'not_authenticated') this.authNeeded = true;
    if (message.toolName === 'register') {
      if (message.isError && code !== 'rate_limited') {
        // username_taken or a refused name: the next attempt uses a different one.
        this.usernameAttempts += 1;
        this.username = this.baseUsername ? `${this.baseUsername}_${this.rng.hex(3)}` : `captain_${this.rng.hex(6)}`;
      } else if (!message.isError) {
        this.authNeeded = false;
        // register may omit the dashboard: forget the old one so the next round asks for status.
        if (data?.player === undefined) this.knowledge.dashboard = undefined;
      }
    }
    if (!message.isError || !code) return;
    const call = message.toolCallId ? calls.get(message.toolCallId) : undefined;
    const tick = this.knowledge.dashboard?.tick ?? 0;
    if (call) {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(call.arguments) as Record<string, unknown>;
      } catch {
        // Our own calls always parse; anything else is not ours to learn from.
      }
      if (!(code in END_TURN_ON)) this.state.failed.set(mutationKey({ name: call.name, args }), tick);
    }
    if (code === 'no_credits') this.state.brokeUntil = tick + 20;
    const at = this.knowledge.dashboard?.location.poi_id;
    if (code === 'no_resources' && at) this.state.avoid.set(at, tick + 30);
    if (code === 'no_base' || code === 'invalid_poi' || code === 'wrong_system' || code === 'not_connected') {
      if (code === 'no_base' && at) this.state.avoid.set(at, tick + 1000);
      this.state.plan = undefined;
    }
    // Our picture of the ship is wrong: ask for it again.
    if (code === 'no_cargo_space' || code === 'insufficient_cargo' || code === 'not_docked' || code === 'docked' ||
        code === 'already_docked' || code === 'no_fuel') {
      this.knowledge.dashboard = undefined;
    }
  }

  private authDecision(tools: ReadonlySet<string>): Decision | undefined {
    if (!this.authNeeded) return undefined;
    if (!tools.has('register') || this.usernameAttempts >= 8) {
      return { kind: 'end', reason: 'Not logged in to the game and cannot register.' };
    }
    return {
      kind: 'calls',
      calls: [{ name: 'register', args: { username: this.username, empire: this.empire } }],
      rationale: `Not logged in: registering as ${this.username} (${this.empire}).`,
    };
  }

  private turnGuard(turn: readonly Message[]): Decision | undefined {
    const last = lastRoundResults(turn);
    for (const message of last) {
      const code = errorCode(message);
      if (code && END_TURN_ON[code]) return { kind: 'end', reason: END_TURN_ON[code] };
    }
    let consecutive = 0;
    for (let i = turn.length - 1; i >= 0; i -= 1) {
      const message = turn[i] as Message;
      if (message.role !== 'tool') continue;
      if (!message.isError) break;
      consecutive += 1;
    }
    if (consecutive >= MAX_CONSECUTIVE_ERRORS) {
      return { kind: 'end', reason: 'Several actions failed in a row; reassessing next turn.' };
    }
    return undefined;
  }
}

function turnView(turn: readonly Message[], mutations: ReadonlySet<string>): TurnView {
  let count = 0;
  let statusAsked = false;
  for (const message of turn) {
    for (const call of message.toolCalls ?? []) {
      if (mutations.has(call.name) || call.name === 'register') {
        count += mutations.has(call.name) ? 1 : 0;
        statusAsked = false;
      } else if (call.name === 'get_status') statusAsked = true;
    }
  }
  const last = lastRoundResults(turn);
  return {
    mutations: count,
    lastErrors: last.map((m) => errorCode(m)).filter((c): c is string => c !== undefined),
    consecutiveErrors: 0,
    statusAsked,
  };
}
