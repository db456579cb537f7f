// The replay of a stored session, one step per stored state change: the points `skipper report NAME --json` plots
// (storedFigures, the one figures module every view uses) joined with the session's snapshots of the same turns, and
// the turns' messages for what the captain did. Consecutive identical states (same place, credits, net worth, cargo,
// fuel, hull, docked: the tick aside) fold into one step that says which turns and ticks it spans, so a captain that
// only looked around for ten turns is one step, not ten. Each step carries that moment's state only — names from the
// galaxy, the actions of its turns in words with their result, the places the ship passed through on its way there —
// never the captain's state today.
import type { Message } from '../shared/index.js';
import { storedFigures, type FigurePoint, type FiguresStore } from '../session/index.js';
import type { SnapshotRecord } from '../store/index.js';
import { detailsOf, observationOf } from '../spacemolt/index.js';
import { actionSentence, isAction, nameFor } from './action-sentence.js';
import { callInWords } from './bridge.js';
import { Galaxy } from './galaxy.js';

/** Action lines a step keeps (its first ones; `actionsLeftOut` counts the rest). */
export const STEP_ACTIONS_MAX = 30;
/** Places a step's path keeps (its last ones: where the ship went just before the state). */
const STEP_PATH_MAX = 60;

export interface MapPoint {
  x: number;
  y: number;
}

export interface ReplayPlace {
  systemId: string | null;
  /** The game's name (or the id as words); null in transit. */
  system: string | null;
  poiId: string | null;
  poi: string | null;
  /** Where the bridge's map draws it; null when the map does not know the system yet. */
  at: MapPoint | null;
}

/** One action of the step's turns, in words with its result: "mined 6 Platinum Ore at Vexuth Major Ice Field". */
export interface ReplayAction {
  turn: number;
  text: string;
  ok: boolean;
  /** The same action repeated back to back (mined ×4). */
  times: number;
}

export interface ReplayStep extends ReplayPlace {
  index: number;
  /** The turn whose end reached this state (the report's point of that turn), and the last turn it still held. */
  turn: number;
  toTurn: number;
  tick: number;
  toTick: number;
  /** When the state was stored (epoch ms); null for the first look of a session stored without a start snapshot. */
  time: number | null;
  credits: number;
  netWorth: number;
  cargoUsed: number | null;
  cargoCapacity: number | null;
  fuel: number | null;
  maxFuel: number | null;
  hull: number | null;
  maxHull: number | null;
  docked: boolean | null;
  /** What the captain did in the turns since the step before, up to this state's last turn. */
  actions: ReplayAction[];
  actionsLeftOut: number;
  /** The places the ship passed through since the step before (jumps, travels, status reads), oldest first. */
  path: ReplayPlace[];
}

/** What one turn's messages say: the actions in words and the places the ship was seen at, in order. */
export interface TurnTrace {
  actions: ReplayAction[];
  path: Array<{ systemId: string; poiId: string | null }>;
}

/** An action read, worded once the whole transcript is read (a name said later in it still reaches the words). */
interface ActionRead {
  turn: number;
  ok: boolean;
  words: (nameOf: (id: string) => string | undefined) => string | null;
}

export interface ReplayInput {
  /** storedFigures' points: the first dashboard (no start snapshot) then one per snapshot. */
  points: readonly FigurePoint[];
  snapshots: readonly SnapshotRecord[];
  traces: ReadonlyMap<number, TurnTrace>;
  nameOf: (id: string) => string | undefined;
  position: (systemId: string | null, poiId: string | null) => MapPoint | null;
}

/** The state a step is made of: what must differ for a new step (the tick and the time aside). */
type StateKey = string;

function stateKey(point: FigurePoint, snapshot: SnapshotRecord | undefined): StateKey {
  return JSON.stringify([
    snapshot?.systemId ?? null,
    snapshot?.poiId ?? null,
    point.credits,
    point.netWorth,
    snapshot?.cargoUsed ?? null,
    snapshot?.cargoCapacity ?? null,
    snapshot?.fuel ?? null,
    snapshot?.maxFuel ?? null,
    snapshot?.hull ?? null,
    snapshot?.maxHull ?? null,
    snapshot?.docked ?? null,
  ]);
}

function place(input: ReplayInput, systemId: string | null, poiId: string | null): ReplayPlace {
  return {
    systemId,
    system: systemId ? nameFor(systemId, input.nameOf) : null,
    poiId,
    poi: poiId ? nameFor(poiId, input.nameOf) : null,
    at: input.position(systemId, poiId),
  };
}

/** Back-to-back repeats of one action folded (×N), then cut to STEP_ACTIONS_MAX. */
function foldActions(actions: readonly ReplayAction[]): { kept: ReplayAction[]; leftOut: number } {
  const folded: ReplayAction[] = [];
  for (const action of actions) {
    const last = folded.at(-1);
    if (last && last.text === action.text && last.ok === action.ok) last.times += action.times;
    else folded.push({ ...action });
  }
  return { kept: folded.slice(0, STEP_ACTIONS_MAX), leftOut: Math.max(0, folded.length - STEP_ACTIONS_MAX) };
}

/** The steps: one per run of identical consecutive states, in turn order. */
export function replaySteps(input: ReplayInput): ReplayStep[] {
  const byTurn = new Map(input.snapshots.map((snapshot) => [snapshot.turn, snapshot]));
  const steps: ReplayStep[] = [];
  let lastKey: StateKey | null = null;
  let doneTurn = -1;
  for (const point of input.points) {
    const snapshot = byTurn.get(point.turn);
    const key = stateKey(point, snapshot);
    const step = steps.at(-1);
    if (step && key === lastKey) {
      step.toTurn = point.turn;
      step.toTick = point.tick;
    } else {
      steps.push(newStep(input, point, snapshot, steps.length));
      lastKey = key;
    }
    // The turns up to this point's belong to the step that holds it (turns with no snapshot fall to the next one).
    const holder = steps.at(-1)!;
    for (let turn = doneTurn + 1; turn <= point.turn; turn++) addTrace(input, holder, turn);
    doneTurn = Math.max(doneTurn, point.turn);
  }
  for (const step of steps) {
    const { kept, leftOut } = foldActions(step.actions);
    step.actions = kept;
    step.actionsLeftOut = leftOut;
    step.path = step.path.slice(-STEP_PATH_MAX);
  }
  return steps;
}

function newStep(
  input: ReplayInput,
  point: FigurePoint,
  snapshot: SnapshotRecord | undefined,
  index: number,
): ReplayStep {
  return {
    index,
    turn: point.turn,
    toTurn: point.turn,
    tick: point.tick,
    toTick: point.tick,
    time: snapshot?.createdAt ?? null,
    ...place(input, snapshot?.systemId ?? null, snapshot?.poiId ?? null),
    credits: point.credits,
    netWorth: point.netWorth,
    cargoUsed: snapshot?.cargoUsed ?? null,
    cargoCapacity: snapshot?.cargoCapacity ?? null,
    fuel: snapshot?.fuel ?? null,
    maxFuel: snapshot?.maxFuel ?? null,
    hull: snapshot?.hull ?? null,
    maxHull: snapshot?.maxHull ?? null,
    docked: snapshot ? snapshot.docked : null,
    actions: [],
    actionsLeftOut: 0,
    path: [],
  };
}

function addTrace(input: ReplayInput, step: ReplayStep, turn: number): void {
  const trace = input.traces.get(turn);
  if (!trace) return;
  step.actions.push(...trace.actions);
  for (const seen of trace.path) {
    const last = step.path.at(-1);
    if (last && last.systemId === seen.systemId && last.poiId === seen.poiId) continue;
    step.path.push(place(input, seen.systemId, seen.poiId));
  }
}

/** Follows a session's messages turn by turn: its actions (worded by `traces`) and where the ship was seen. */
export class TraceReader {
  private readonly paths = new Map<number, TurnTrace['path']>();
  private readonly actions: ActionRead[] = [];
  private readonly calls = new Map<string, { name: string; args: string }>();
  private systemId: string | null = null;
  private poiId: string | null = null;

  read(message: Message): void {
    const turn = message.turn ?? 0;
    for (const call of message.toolCalls ?? []) this.calls.set(call.id, { name: call.name, args: call.arguments });
    if (message.role !== 'tool') return;
    const observation = observationOf(message.data);
    const poiId = this.poiId;
    this.follow(observation, turn);
    const failed = message.isError === true;
    if (isAction(observation)) {
      this.actions.push({
        turn,
        ok: !observation.error && !failed,
        words: (nameOf) => actionSentence(observation, { nameOf, poiId }),
      });
      return;
    }
    // A query changes nothing; a game the bridge cannot read: the call in words, and whether it failed.
    const call = message.toolCallId ? this.calls.get(message.toolCallId) : undefined;
    if (observation.op || !call) return;
    this.actions.push({
      turn,
      ok: !failed,
      words: (nameOf) => `${callInWords(call.name, call.args, nameOf)}${failed ? ': failed' : ''}`,
    });
  }

  /** Every turn read: its actions in words (with the names known now) and its places. */
  traces(nameOf: (id: string) => string | undefined): Map<number, TurnTrace> {
    const traces = new Map<number, TurnTrace>();
    const trace = (turn: number): TurnTrace => {
      let found = traces.get(turn);
      if (!found) traces.set(turn, (found = { actions: [], path: this.paths.get(turn) ?? [] }));
      return found;
    };
    for (const turn of this.paths.keys()) trace(turn);
    for (const action of this.actions) {
      const text = action.words(nameOf);
      if (text) trace(action.turn).actions.push({ turn: action.turn, text, ok: action.ok, times: 1 });
    }
    return traces;
  }

  /** Where the answer says the ship is now: a status read's place, a travel's POI, a jump's system and gate. */
  private follow(observation: ReturnType<typeof observationOf>, turn: number): void {
    const location = observation.location;
    if (location?.system_id) {
      this.systemId = location.system_id;
      if (location.poi_id !== undefined) this.poiId = location.poi_id;
    } else if (observation.op === 'jump' && !observation.error) {
      const jump = detailsOf('jump', observation.details);
      if (!jump) return;
      this.systemId = jump.arrived_system;
      this.poiId = jump.arrived_poi ?? null;
    } else if (observation.op === 'travel' && !observation.error) {
      const travel = detailsOf('travel', observation.details);
      if (!travel) return;
      this.poiId = travel.arrived_at;
    } else return;
    if (!this.systemId) return;
    const path = this.paths.get(turn) ?? [];
    path.push({ systemId: this.systemId, poiId: this.poiId });
    this.paths.set(turn, path);
  }
}

export interface SessionReplay {
  sessionId: string;
  /** Stored snapshots and report points the steps were made of. */
  snapshots: number;
  points: number;
  steps: ReplayStep[];
}

/**
 * A stored session's replay. `galaxy`: the bridge's map, for positions and names (names the session's own answers
 * said fill in what the bridge has not read yet).
 */
export async function sessionReplay(
  store: FiguresStore,
  sessionId: string,
  galaxy: Pick<Galaxy, 'nameOf' | 'position'>,
): Promise<SessionReplay> {
  const figures = await storedFigures(store, sessionId);
  const snapshots = await store.snapshots(sessionId);
  const own = new Galaxy();
  const nameOf = (id: string): string | undefined => galaxy.nameOf(id) ?? own.nameOf(id);
  const reader = new TraceReader();
  const lastTurn = figures.points.at(-1)?.turn ?? -1;
  for await (const message of store.iterateMessages(sessionId, { toTurn: lastTurn })) {
    own.ingest(message);
    reader.read(message);
  }
  const steps = replaySteps({
    points: figures.points,
    snapshots,
    traces: reader.traces(nameOf),
    nameOf,
    position: (systemId, poiId) => galaxy.position(systemId, poiId),
  });
  return { sessionId, snapshots: snapshots.length, points: figures.points.length, steps };
}
