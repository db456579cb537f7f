// builtin/autopilot: a non-LLM captain behind the Provider interface. It reads the tool results in the context it is
// given (what the game layer parsed from the game's text), keeps what it learned (per session, by message id), and
// answers like a model: tool calls with a one-line rationale, then a one-line summary to end the turn. It plays
// either SpaceMolt face, read from the tool list; its policies speak in ops, spelled for the face at the last step.
// Deterministic given its seed and what it was shown: each reply says what else it decided on (DecisionInputs — its
// instance, what its fleet told it, a plan set since), and a replay that hands those back makes the same decision.
import { randomUUID } from 'node:crypto';
import type {
  CompletionRequest,
  CompletionResponse,
  DecisionInputs,
  Message,
  Provider,
  ToolSpec,
} from '../../shared/index.js';
import type { FleetKnowledgePort } from '../../spacemolt/index.js';
import type { EmpireId, FlightPlan, GameOp } from '../../spacemolt/index.js';
import { FatalError, eventKinds, throwIfAborted } from '../../shared/index.js';
import { FACES, createSeededRng, randomSeed, readFlightPlan, type Rng } from '../../spacemolt/index.js';
import { CallIds, currentTurn, lastRoundResults, reply } from './common.js';
import { decideExplore, goalText, isExploreGoal } from './explore.js';
import { GameFace, canAutopilot } from './face.js';
import { PlaybackFleetPort, RecordingFleetPort, fleetReadsOf } from './fleet-reads.js';
import { Knowledge, type KnowledgeOptions } from './knowledge.js';
import { type Observed, errorCode } from './observation.js';
import { createPolicyState, decide, mutationKey, type Decision, type PolicyState, type TurnView } from './policy.js';
import { Registration } from './registration.js';
import { summarizeTurn } from './summary.js';

export interface AutopilotOptions {
  /** Makes the run reproducible (username, call ids, tie-breaks); a random one when absent. */
  seed?: number;
  /** Username to register with; `captain_<6 hex>` from the seed by default. */
  username?: string;
  empire?: EmpireId;
  /** The fleet's shared markets and sale claims (`skipper fleet`): read when choosing where to sell, told what this
   * captain sees. Alone when absent. */
  fleet?: FleetKnowledgePort;
  /** Epoch ms, dating what is shared with the fleet (Date.now by default). */
  now?: () => number;
}

type FaceReading = { ok: true; face: GameFace; ops: ReadonlySet<GameOp> } | { ok: false; reason: string };

/** Errors after which the turn is better ended than continued. */
const END_TURN_ON: Record<string, string> = {
  rate_limited: 'The game is rate-limiting us; pausing until next turn.',
  action_pending: 'An action is still pending; continuing next turn.',
  in_transit: 'Still in transit; continuing next turn.',
};
const MAX_CONSECUTIVE_ERRORS = 3;
/** Errors that say our picture of the ship is wrong: it is asked for again. */
const STALE_ON: ReadonlySet<string> = new Set([
  'no_cargo_space',
  'insufficient_cargo',
  'not_docked',
  'docked',
  'already_docked',
  'no_fuel',
]);

export class AutopilotProvider implements Provider {
  readonly id = 'builtin/autopilot';
  readonly capabilities = { builtin: true, needsKnownFace: true, fliesPlans: true, contextOnDemand: true } as const;
  // What it learnt and keeps between requests: made afresh by start() (see restore).
  private knowledge!: Knowledge;
  private state!: PolicyState;
  private registration!: Registration;
  private ids!: CallIds;
  private lastTurnKey = '';
  /** Planner mode: the model's plan, flown instead of the goal's reading. */
  private flightPlan: FlightPlan | undefined;
  private readonly seed: number;
  private readonly empire: EmpireId;
  private readonly username: string;
  /** The last tool list's face (see faceOf). */
  private faceRead: { tools: readonly ToolSpec[]; reading: FaceReading } | undefined;
  /** This instance, as its decisions' inputs name it: a new process (a resumed session) starts with nothing learnt. */
  private readonly instance: string = randomUUID();
  /** In a fleet: the fleet's port, its reads kept for each decision's inputs. */
  private readonly fleetReads: RecordingFleetPort | undefined;
  /** A plan was set since the last decision (it goes with that decision's inputs). */
  private planSet = false;
  /** Replaying stored decisions: the live instance whose decisions are being made again, and its fleet's answers. */
  private replaying: { instance: string; fleet: PlaybackFleetPort | undefined } | undefined;

  constructor(options: AutopilotOptions = {}) {
    this.seed = options.seed ?? randomSeed();
    const rng: Rng = createSeededRng(this.seed);
    this.fleetReads = options.fleet ? new RecordingFleetPort(options.fleet, options.now ?? Date.now) : undefined;
    this.start(
      this.fleetReads
        ? { fleet: this.fleetReads, now: this.fleetReads.now }
        : { ...(options.now ? { now: options.now } : {}) },
    );
    this.empire = options.empire ?? 'solarian';
    this.username = options.username ?? `captain_${rng.hex(6)}`;
  }

  /** Everything learnt, forgotten: as a new instance starts. */
  private start(knowledge: KnowledgeOptions): void {
    this.knowledge = new Knowledge(knowledge);
    this.state = createPolicyState();
    this.registration = new Registration();
    this.ids = new CallIds(createSeededRng(this.seed + 7919));
    this.lastTurnKey = '';
    this.flightPlan = undefined;
  }

  setFlightPlan(plan: FlightPlan | undefined): void {
    this.planSet = true;
    this.flightPlan = plan;
    const prefer =
      plan?.strategy === 'mine'
        ? {
            ...(plan.resource ? { resource: plan.resource } : {}),
            ...(plan.sellAt ? { station: plan.sellAt } : {}),
            ...(plan.systems ? { systems: plan.systems } : {}),
          }
        : undefined;
    if (prefer && Object.keys(prefer).length > 0) this.state.prefer = prefer;
    else delete this.state.prefer;
    // A new plan is chosen afresh on the next step (the old loop may not fit it).
    this.state.plan = undefined;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    throwIfAborted(request.signal);
    this.fleetReads?.take(); // reads of a decision that threw are no one's
    if (request.inputs) this.restore(request.inputs);
    const response = this.answer(request);
    return { ...response, inputs: this.inputs() };
  }

  /** What this decision depended on besides its request (see DecisionInputs). */
  private inputs(): DecisionInputs {
    const given: Record<string, unknown> = {};
    if (this.fleetReads) given.fleet = this.fleetReads.take();
    if (this.planSet) given.plan = this.flightPlan ?? null;
    this.planSet = false;
    return { instance: this.instance, ...(Object.keys(given).length > 0 ? { given } : {}) };
  }

  /**
   * A replayed decision: the state it was made in, restored — a fresh start where the live instance changed (a
   * resumed session's new process learnt only from then on), the fleet's answers as recorded, the plan set before it.
   */
  private restore(inputs: DecisionInputs): void {
    const given = inputs.given ?? {};
    if (this.replaying?.instance !== inputs.instance) {
      const fleet = 'fleet' in given ? new PlaybackFleetPort() : undefined;
      this.start(fleet ? { fleet, now: fleet.now } : {});
      this.replaying = { instance: inputs.instance, fleet };
    }
    this.replaying.fleet?.load(fleetReadsOf(given.fleet));
    if ('plan' in given) this.setFlightPlan(readFlightPlan(given.plan));
  }

  private answer(request: CompletionRequest): CompletionResponse {
    const turn = currentTurn(request.messages);
    const reading = this.faceOf(request.tools);
    if (!reading.ok)
      return reply({ request, model: this.id, content: `Cannot play: ${reading.reason}.`, toolCalls: [] });
    const { face, ops } = reading;

    // Ticks went by since the last turn (pirates, the market): one status confirms the picture first, unless the turn
    // went straight on from the last one (pictureStillFresh). Marked before this turn's messages are read, so a
    // status already among them counts.
    const turnKey = request.messages.filter((m) => m.role === 'user').at(-1)?.id ?? '';
    if (turnKey !== this.lastTurnKey && this.knowledge.dashboard && !pictureStillFresh(request.messages))
      this.knowledge.stale = true;
    this.knowledge.ingest(request.messages, (observed) => this.learnFrom(observed));
    // A refused register ends the run: nothing can be played logged out, and retrying spends the game's
    // per-address registration budget (an autoplay would otherwise idle on it forever).
    const refusal = this.registration.refusal;
    if (refusal !== undefined) {
      const hint = /--registration-code/.test(refusal)
        ? ''
        : ' (a wrong code: --registration-code CODE; a taken name: another --username, or if that captain is ' +
          'yours, its password in SKIPPER_GAME_PASSWORD)';
      throw new FatalError(
        'cannot_register',
        `the autopilot cannot log in: the game refused to register it: ${refusal}. It does not retry: fix that${hint} and run again.`,
      );
    }
    if (turnKey !== this.lastTurnKey) {
      this.lastTurnKey = turnKey;
      if (this.registration.turnStarted()) this.knowledge.belief.interrupted(undefined);
    }

    const view = turnView(turn, face);
    // The goal picks the policy: explore mode when it asks to explore / visit systems, mining otherwise.
    const explore = this.flightPlan
      ? this.flightPlan.strategy === 'explore'
      : isExploreGoal(goalText(request.messages));
    const policy = explore ? decideExplore : decide;
    const auth = this.registration.decide({
      ops,
      username: this.username,
      empire: this.empire,
      now: this.knowledge.clock,
    });
    const decision: Decision =
      auth ??
      turnGuard(turn) ??
      confirmState(this.knowledge, view, ops) ??
      policy({ knowledge: this.knowledge, state: this.state, turn: view, ops });

    if (decision.kind === 'end') {
      // Ending on the action budget: look one step ahead so the summary says what really comes next.
      if (decision.reason === '')
        policy({ knowledge: this.knowledge, state: this.state, turn: { ...view, mutations: 0 }, ops });
      // Not logged in, nothing comes next until the person acts: no "Next:" that promises work.
      const intent = auth ? undefined : this.state.intent;
      const content = summarizeTurn({
        turn,
        reason: decision.reason,
        ...(intent ? { intent } : {}),
        unreadable: this.knowledge.unreadable,
      });
      this.knowledge.unreadable.clear();
      return reply({ request, model: this.id, content, toolCalls: [] });
    }
    const spelled = decision.calls.map((call) => face.spell(call.op, call.args)).filter((call) => call !== undefined);
    const ids = this.ids.make(request.messages, spelled.length);
    const toolCalls = spelled.map((call, i) => ({
      id: ids[i] as string,
      name: call.name,
      arguments: JSON.stringify(call.args),
    }));
    return reply({ request, model: this.id, content: decision.rationale, toolCalls });
  }

  /** The game's face as the tool list shows it, read once per list: every round of a session offers the same one. */
  private faceOf(tools: readonly ToolSpec[]): FaceReading {
    if (this.faceRead?.tools === tools) return this.faceRead.reading;
    const check = canAutopilot(tools);
    const face = check.ok ? new GameFace(check.face, tools) : undefined;
    const reading: FaceReading = face
      ? { ok: true, face, ops: new Set((Object.keys(FACES[face.face]) as GameOp[]).filter((op) => face.has(op))) }
      : { ok: false, reason: check.ok ? '' : check.reason };
    this.faceRead = { tools, reading };
    return reading;
  }

  /** Updates registration and policy state from one new tool result. */
  private learnFrom(observed: Observed): void {
    this.registration.observe(observed, observed.at);
    const { message, op } = observed;
    const code = errorCode(message);
    if (!message.isError || !code) {
      // register may omit the status block: forget the old one so the next round asks for it.
      if (op === 'register' && !message.isError && !observed.data.player) this.knowledge.belief.reset();
      return;
    }
    this.learnFromError(observed, code);
  }

  /** An action refused with `code`: remember the refusal so the policies steer around it for a while. */
  private learnFromError(observed: Observed, code: string): void {
    const { op, args } = observed;
    const now = observed.at;
    if (op && !(code in END_TURN_ON)) this.state.failed.set(mutationKey({ op, args }), now);
    if (code === 'no_credits') this.state.brokeUntil = now + 20;
    if (code === 'docked' && (op === 'travel' || op === 'jump')) this.state.undockFirst = true;
    const at = this.knowledge.dashboard?.location.poi_id;
    if (code === 'no_resources' && at) this.state.avoid.set(at, now + 30);
    if (code === 'no_base' || code === 'invalid_poi' || code === 'wrong_system' || code === 'not_connected') {
      if (code === 'no_base' && at) this.state.avoid.set(at, now + 1000);
      this.state.plan = undefined;
    }
    if (STALE_ON.has(code)) this.knowledge.belief.interrupted(undefined);
  }
}

/** The last action's answer said no state (the real server's `Docked at X.`): one free status confirms it before any
 * policy acts on the autopilot's own reckoning. */
function confirmState(knowledge: Knowledge, view: TurnView, ops: ReadonlySet<GameOp>): Decision | undefined {
  if (!knowledge.stale || !ops.has('get_status') || view.statusAsked) return undefined;
  return {
    kind: 'calls',
    calls: [{ op: 'get_status', args: {} }],
    rationale:
      view.mutations > 0 ? 'Checking the ship status after that action.' : 'Checking the ship status: ticks went by.',
  };
}

/**
 * Whether a new turn began so soon after the last one that the ship's picture is as fresh as it is between two actions
 * of a turn, which are taken without a status: the turn's input came no later after the last result than the previous
 * turn's results came apart from each other, and it reports no event but chat (a market fill or a fight changes the
 * ship). Autoplay going straight on passes; a person typing minutes later, a resumed session or a turn after a pause
 * asks for a status first.
 */
export function pictureStillFresh(messages: readonly Message[]): boolean {
  let start = messages.length - 1;
  while (start >= 0 && messages[start]?.role !== 'user') start -= 1;
  const input = messages[start];
  if (!input || !onlyChatEvents(input.content)) return false;
  const results: number[] = [];
  for (let index = start - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role === 'user') break;
    if (message.role === 'tool') results.push(message.createdAt);
  }
  // Newest first; two results at least, to know how far apart a turn's steps are.
  if (results.length < 2) return false;
  let step = 0;
  for (let index = 1; index < results.length; index += 1)
    step = Math.max(step, (results[index - 1] as number) - (results[index] as number));
  return input.createdAt - (results[0] as number) <= step;
}

/** The turn's input lists no event, or only chat. A line of no known shape (a cut block's "(3 more not shown)")
 * hides events, so it counts as one that is not chat. */
function onlyChatEvents(text: string): boolean {
  return eventKinds(text).every((kind) => kind === 'chat');
}

function turnGuard(turn: readonly Message[]): Decision | undefined {
  for (const message of lastRoundResults(turn)) {
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
  if (consecutive >= MAX_CONSECUTIVE_ERRORS)
    return { kind: 'end', reason: 'Several actions failed in a row; reassessing next turn.' };
  return undefined;
}

/** Actions already made this turn, counted by what each call costs (on v2 one tool holds queries and actions). */
function turnView(turn: readonly Message[], face: GameFace): TurnView {
  let mutations = 0;
  let statusAsked = false;
  for (const message of turn) {
    for (const call of message.toolCalls ?? []) {
      const op = face.opOf(call);
      if (face.kindOf(call) === 'mutation' || op === 'register') {
        if (op !== 'register') mutations += 1;
        statusAsked = false;
      } else if (op === 'get_status') statusAsked = true;
    }
  }
  return {
    mutations,
    lastErrors: lastRoundResults(turn)
      .map((m) => errorCode(m))
      .filter((c): c is string => c !== undefined),
    consecutiveErrors: 0,
    statusAsked,
  };
}
