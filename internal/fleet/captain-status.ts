// What a fleet captain's row says, kept from its runner's events: the latest state (credits, net worth, place, tick),
// the game actions that went through and the last one, the model spend of each round (handed to the governor), and
// the calls and states the watchdog reads. The row is written at most once a second per captain (and at once when a
// step changes), so 50 captains cost the store 50 small writes a second at most.
import type { RunnerEvent, GameState, IsAction } from '../session/index.js';
import type { FleetCaptainUpdate, FleetTable } from '../store/index.js';
import { clip, argumentsOf } from '../shared/index.js';
import type { WatchEvent } from './watchdog.js';

export interface CaptainStatusOptions {
  fleet: string;
  captain: string;
  store: Pick<FleetTable, 'writeCaptain'>;
  isAction: IsAction;
  /** The game's tick now. */
  tick: () => number | undefined;
  /** Each model round's cost (USD), as it is reported. */
  onSpend: (usd: number) => void;
  onWatch: (event: WatchEvent) => void;
  now?: () => number;
  writeEveryMs?: number;
  /** Whether this process still plays the captain (its lease holds): a row is never written once it does not. */
  held?: () => boolean;
  /** A row write that failed (the database away): logged by the caller; the next flush writes the latest again. */
  onError?: (error: unknown) => void;
}

function place(state: GameState): string | undefined {
  if (state.location) return state.location;
  if (state.systemId) return state.poiId ? `${state.systemId} / ${state.poiId}` : state.systemId;
  return undefined;
}

export class CaptainStatus {
  actions = 0;
  lastAction: string | undefined;
  state: GameState | undefined;
  private pending: FleetCaptainUpdate = {};
  private lastWrite = 0;
  /** Row writes, one after another in the order made (a later state never overtaken by an earlier one). */
  private writing: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly writeEveryMs: number;

  constructor(private readonly options: CaptainStatusOptions) {
    this.now = options.now ?? Date.now;
    this.writeEveryMs = options.writeEveryMs ?? 1000;
  }

  /** The session's actions so far (a resumed captain counts on from its row). */
  restore(actions: number): void {
    this.actions = actions;
  }

  readonly listener = (event: RunnerEvent): void => {
    const at = this.now();
    const tick = this.options.tick() ?? 0;
    if (event.type === 'usage') {
      if (event.usage.costUsd > 0) this.options.onSpend(event.usage.costUsd);
    } else if (event.type === 'tool-result') {
      const args = event.call.arguments;
      const parsed = argumentsOf(args);
      const action = this.options.isAction(event.call.name, parsed);
      const ok = !event.result.isError;
      if (action && ok) {
        this.actions += 1;
        this.lastAction = clip(`${event.call.name} ${args === '{}' ? '' : args}`.trim(), 80);
        this.update({ actions: this.actions, lastAction: this.lastAction });
      }
      this.options.onWatch({ type: 'call', name: event.call.name, args, action, ok, tick, at });
    } else if (event.type === 'state') {
      this.onState(event.state, tick, at);
    } else if (event.type === 'turn-start') {
      this.options.onWatch({ type: 'turn-start', at });
    } else if (event.type === 'turn-end') {
      this.options.onWatch({ type: 'turn-end', at });
      this.flush(false);
    }
  };

  private onState(state: GameState, tick: number, at: number): void {
    this.state = state;
    const where = place(state);
    this.update({
      ...(state.credits !== undefined ? { credits: state.credits } : {}),
      ...(state.netWorth !== undefined ? { netWorth: state.netWorth } : {}),
      ...(where ? { place: where } : {}),
      ...(state.tick !== undefined ? { tick: state.tick } : {}),
    });
    this.options.onWatch({
      type: 'state',
      tick: state.tick ?? tick,
      at,
      ...(state.credits !== undefined ? { credits: state.credits } : {}),
      ...(state.fuel !== undefined ? { fuel: state.fuel } : {}),
      ...(state.maxFuel !== undefined ? { maxFuel: state.maxFuel } : {}),
      ...(state.hull !== undefined ? { hull: state.hull } : {}),
      ...(state.maxHull !== undefined ? { maxHull: state.maxHull } : {}),
    });
  }

  /** Fields to write with the next flush. */
  update(fields: FleetCaptainUpdate): void {
    Object.assign(this.pending, fields);
  }

  /** Writes what changed: at once when `now`, else when the last write is older than writeEveryMs. */
  flush(now: boolean): void {
    if (Object.keys(this.pending).length === 0) return;
    const at = this.now();
    if (!now && at - this.lastWrite < this.writeEveryMs) return;
    if (this.options.held && !this.options.held()) return;
    this.lastWrite = at;
    const fields = this.pending;
    this.pending = {};
    this.writing = this.writing
      // Asked again when its turn comes: a lease lost while an earlier write was on its way writes nothing more.
      .then(() =>
        this.options.held && !this.options.held()
          ? undefined
          : this.options.store.writeCaptain(this.options.fleet, this.options.captain, fields),
      )
      .catch((error: unknown) => {
        // Written again with the next flush: what changed since is merged over what could not be written.
        this.pending = { ...fields, ...this.pending };
        this.options.onError?.(error);
      });
  }

  /** Resolves once every row write made so far has been tried. */
  async settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.writing) {
      seen = this.writing;
      await seen;
    }
  }
}
