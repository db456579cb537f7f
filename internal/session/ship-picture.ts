// The session's picture of the ship, for the status line and the stored snapshots: the same belief the built-in
// autopilot keeps (spacemolt/belief.ts), fed with every tool result and the call that asked for it. So a status that
// names no POI never leaves the POI of another system in place (snapshots once paired `vexuth_major / sol_central`),
// a mine or a sale moves the hold even when its answer states no status (the status line once froze at `cargo 0/70`
// while the hold filled), and a call cut off mid-way leaves what it may have changed unknown.
import { errorCodeOf, type Message, type ToolCall } from '../shared/index.js';
import { ShipBelief, fromFaceCall, observationOf, type FaceId, type GameOp, type OpArgs } from '../spacemolt/index.js';
import type { GameState } from './game-state.js';
import { netWorthOf, type PriceBook } from './price-book.js';

export class ShipPicture {
  private readonly belief = new ShipBelief();
  /** Bumped when the picture changes (a result that said nothing of the ship leaves it as it was). */
  private seenVersion = -1;

  constructor(private readonly face: FaceId | undefined) {}

  /** Learns from one tool result; true when the picture changed. */
  observe(options: { call: ToolCall | undefined; message: Message; at: number }): boolean {
    const { call, message, at } = options;
    if (message.role !== 'tool') return false;
    const observation = observationOf(message.data);
    const asked = call ? this.callOf(call) : undefined;
    const op = observation.op ?? asked?.op;
    this.belief.learn({
      op,
      args: asked?.args ?? {},
      observation,
      isError: message.isError === true,
      code: message.isError ? errorCodeOf(message) : undefined,
      at,
    });
    if (this.belief.version === this.seenVersion) return false;
    this.seenVersion = this.belief.version;
    return true;
  }

  /** The picture as a GameState; undefined while nothing of the ship is known. */
  state(prices?: PriceBook): GameState | undefined {
    const belief = this.belief;
    const facts = belief.all;
    const player = belief.player();
    const ship = facts.ship;
    if (!player && Object.keys(ship).length === 0) return undefined;
    const state: GameState = {};
    const set = <K extends keyof GameState>(key: K, value: GameState[K] | undefined): void => {
      if (value !== undefined) state[key] = value;
    };
    set('username', facts.username?.value);
    set('credits', facts.credits?.value);
    set('fuel', ship.fuel?.value);
    set('maxFuel', ship.max_fuel?.value);
    set('cargoUsed', ship.cargo_used?.value);
    set('cargoCapacity', ship.cargo_capacity?.value);
    set('hull', ship.hull?.value);
    set('maxHull', ship.max_hull?.value);
    Object.assign(state, this.place());
    const cargo = belief.cargo();
    if (state.credits !== undefined && cargo) {
      const worth = netWorthOf(state.credits, cargo, prices);
      state.netWorth = worth.value;
      state.netWorthPricing = worth.pricing;
    }
    return state;
  }

  /** Where the ship is: a POI only together with the system it is in. */
  private place(): Pick<GameState, 'systemId' | 'poiId' | 'location' | 'docked'> {
    const facts = this.belief.all;
    const out: Pick<GameState, 'systemId' | 'poiId' | 'location' | 'docked'> = {};
    const system = facts.system?.value;
    const poi = this.belief.poiHere();
    const transit = facts.transit?.value;
    if (system?.id) out.systemId = system.id;
    // The POI is said when known here; unknown (null in the snapshot's terms) when nothing says where in the system.
    out.poiId = transit ? null : (poi?.id ?? null);
    const systemName = system?.name ?? system?.id;
    if (systemName) out.location = poi ? `${systemName} / ${poi.name ?? poi.id}` : systemName;
    if (transit) out.location = `${out.location ?? ''} (in transit)`.trim();
    if (facts.docked) out.docked = facts.docked.value;
    return out;
  }

  private callOf(call: ToolCall): { op: GameOp; args: OpArgs } | undefined {
    if (!this.face) return undefined;
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(call.arguments || '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
    } catch {
      // Arguments that are not JSON: the op is still read from the result.
    }
    return fromFaceCall(this.face, call.name, args);
  }
}

/** The picture a transcript leaves: every tool result in order, each with the call that asked for it. */
export function pictureOf(messages: readonly Message[], face: FaceId | undefined, prices?: PriceBook): ShipPicture {
  const picture = new ShipPicture(face);
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    if (message.role !== 'tool') continue;
    prices?.observe(message);
    picture.observe({ call: calls.get(message.toolCallId ?? ''), message, at: message.createdAt });
  }
  return picture;
}
