// What the autopilot read from its fleet's shared knowledge while it made one decision, kept so a replay hands it the
// same answers (the fleet-mates' surveys, markets, dangers and claims move on while it plays, and are not in its
// context), and the clock that dated what it learnt (a fleet-mate's view wins over its own when newer). Live, a
// recording port stands between the autopilot and the fleet; in a replay, a playback port answers from what was
// recorded. Writes (what the autopilot tells the fleet) go through live and nowhere in a replay. A fleet reads the
// same views again and again: a view this instance recorded before is recorded again as its key alone (its system or
// station), so a replay must hand the port every decision of the instance, in order, as it was live.
import type { FleetKnowledgePort, SharedDanger, SharedMarketView, SharedSystemView } from '../../spacemolt/index.js';

/** A view as recorded: the view, or the key of the one recorded last under that key (unchanged since). */
type Recorded<View> = View | string;

/** The reads of one decision: each present when it was read. */
export interface FleetReads {
  /** Present when the port handed out another array than the last time (the autopilot merges only then). */
  systems?: Array<Recorded<SharedSystemView>>;
  dangers?: Array<Recorded<SharedDanger>>;
  markets?: Array<Recorded<SharedMarketView>>;
  /** `claimed(poi, item)` by `poi item`. */
  claimed?: Record<string, number>;
  /** The clock's readings (epoch ms), in order. */
  now?: number[];
}

const claimKey = (poiId: string, item: string): string => `${poiId} ${item}`;

// The fields of each view the port promises (the fleet's own port adds an age the autopilot never reads), and its key.
const systemView = (view: SharedSystemView): SharedSystemView => ({
  systemId: view.systemId,
  name: view.name,
  ...(view.policeLevel !== undefined ? { policeLevel: view.policeLevel } : {}),
  connections: view.connections,
  pois: view.pois,
  at: view.at,
  captain: view.captain,
});
const marketView = (view: SharedMarketView): SharedMarketView => ({
  poiId: view.poiId,
  systemId: view.systemId,
  name: view.name,
  at: view.at,
  bids: view.bids,
  noBuyers: view.noBuyers,
  captain: view.captain,
});
const dangerView = (view: SharedDanger): SharedDanger => ({
  systemId: view.systemId,
  what: view.what,
  at: view.at,
  captain: view.captain,
});

/** One kind of view as recorded so far: the last one under each key, as JSON. */
class Recorder<View> {
  private readonly last = new Map<string, string>();
  private readonly keyOf: (view: View) => string;
  private readonly fields: (view: View) => View;

  constructor(keyOf: (view: View) => string, fields: (view: View) => View) {
    this.keyOf = keyOf;
    this.fields = fields;
  }

  record(views: readonly View[]): Array<Recorded<View>> {
    return views.map((view) => {
      const kept = this.fields(view);
      const key = this.keyOf(kept);
      const json = JSON.stringify(kept);
      if (this.last.get(key) === json) return key;
      this.last.set(key, json);
      return kept;
    });
  }
}

/** One kind of view as played back: the last one under each key. */
class Player<View extends object> {
  private readonly last = new Map<string, View>();
  private readonly keyOf: (view: View) => string;

  constructor(keyOf: (view: View) => string) {
    this.keyOf = keyOf;
  }

  play(recorded: ReadonlyArray<Recorded<View>>): View[] {
    return recorded.flatMap((entry) => {
      if (typeof entry !== 'string') {
        this.last.set(this.keyOf(entry), entry);
        return [entry];
      }
      // A key recorded by a decision the replay was not shown: nothing to answer with.
      const view = this.last.get(entry);
      return view ? [view] : [];
    });
  }
}

/** Passes everything to the fleet's port, and keeps what was read since the last take(). */
export class RecordingFleetPort implements FleetKnowledgePort {
  private readonly port: FleetKnowledgePort;
  private reads: FleetReads = {};
  private lastSystems: readonly SharedSystemView[] | undefined;
  private readonly clock: () => number;
  private readonly systemViews = new Recorder<SharedSystemView>((view) => view.systemId, systemView);
  private readonly marketViews = new Recorder<SharedMarketView>((view) => view.poiId, marketView);
  private readonly dangerViews = new Recorder<SharedDanger>((view) => view.systemId, dangerView);

  constructor(port: FleetKnowledgePort, clock: () => number) {
    this.port = port;
    this.clock = clock;
  }

  /** The clock that dates what the autopilot shares and learns, read through the recording. */
  readonly now = (): number => {
    const at = this.clock();
    (this.reads.now ??= []).push(at);
    return at;
  };

  /** What was read since the last take. */
  take(): FleetReads {
    const reads = this.reads;
    this.reads = {};
    return reads;
  }

  publishMarket(view: Parameters<FleetKnowledgePort['publishMarket']>[0]): void {
    this.port.publishMarket(view);
  }

  markets(): SharedMarketView[] {
    const views = this.port.markets();
    this.reads.markets = this.marketViews.record(views);
    return views;
  }

  claimSale(claim: Parameters<FleetKnowledgePort['claimSale']>[0]): void {
    this.port.claimSale(claim);
  }

  claimed(poiId: string, item: string): number {
    const quantity = this.port.claimed(poiId, item);
    this.reads.claimed = { ...this.reads.claimed, [claimKey(poiId, item)]: quantity };
    return quantity;
  }

  publishSystem(view: Parameters<FleetKnowledgePort['publishSystem']>[0]): void {
    this.port.publishSystem(view);
  }

  systems(): readonly SharedSystemView[] {
    const views = this.port.systems();
    // The same array means nothing changed (the port's promise): only a new one is kept, as only a new one is merged.
    if (views !== this.lastSystems) {
      this.lastSystems = views;
      this.reads.systems = this.systemViews.record(views);
    }
    return views;
  }

  publishDanger(danger: Parameters<FleetKnowledgePort['publishDanger']>[0]): void {
    this.port.publishDanger(danger);
  }

  dangers(): SharedDanger[] {
    const dangers = this.port.dangers();
    this.reads.dangers = this.dangerViews.record(dangers);
    return dangers;
  }
}

/** Answers a replayed decision from its recorded reads; what it is told goes nowhere. */
export class PlaybackFleetPort implements FleetKnowledgePort {
  private reads: FleetReads = {};
  private marketsNow: SharedMarketView[] = [];
  private dangersNow: SharedDanger[] = [];
  private systemsNow: readonly SharedSystemView[] = [];
  private readonly systemViews = new Player<SharedSystemView>((view) => view.systemId);
  private readonly marketViews = new Player<SharedMarketView>((view) => view.poiId);
  private readonly dangerViews = new Player<SharedDanger>((view) => view.systemId);
  private readings = 0;
  private lastReading = 0;

  /** The clock as it read live; its last reading again past the recorded ones. */
  readonly now = (): number => {
    const at = this.reads.now?.[this.readings];
    this.readings += 1;
    if (at !== undefined) this.lastReading = at;
    return this.lastReading;
  };

  /** The reads of the decision about to be made again. */
  load(reads: FleetReads): void {
    this.reads = reads;
    this.readings = 0;
    // A new array, as the live port handed out one: the autopilot merges it.
    if (reads.systems) this.systemsNow = this.systemViews.play(reads.systems);
    this.marketsNow = this.marketViews.play(reads.markets ?? []);
    this.dangersNow = this.dangerViews.play(reads.dangers ?? []);
  }

  publishMarket(): void {}

  markets(): SharedMarketView[] {
    return [...this.marketsNow];
  }

  claimSale(): void {}

  claimed(poiId: string, item: string): number {
    return this.reads.claimed?.[claimKey(poiId, item)] ?? 0;
  }

  publishSystem(): void {}

  systems(): readonly SharedSystemView[] {
    return this.systemsNow;
  }

  publishDanger(): void {}

  dangers(): SharedDanger[] {
    return [...this.dangersNow];
  }
}

/** Recorded reads as stored (JSON), checked loosely: a field of the wrong kind is read as not read. */
export function fleetReadsOf(value: unknown): FleetReads {
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  const list = <T>(field: unknown): T[] | undefined => (Array.isArray(field) ? (field as T[]) : undefined);
  const systems = list<Recorded<SharedSystemView>>(record.systems);
  const dangers = list<Recorded<SharedDanger>>(record.dangers);
  const markets = list<Recorded<SharedMarketView>>(record.markets);
  const now = list<number>(record.now);
  const claimed =
    typeof record.claimed === 'object' && record.claimed !== null
      ? (record.claimed as Record<string, number>)
      : undefined;
  return {
    ...(systems ? { systems } : {}),
    ...(dangers ? { dangers } : {}),
    ...(markets ? { markets } : {}),
    ...(claimed ? { claimed } : {}),
    ...(now ? { now } : {}),
  };
}
