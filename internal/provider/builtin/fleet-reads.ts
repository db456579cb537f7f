// What the autopilot read from its fleet's shared knowledge while it made one decision, kept so a replay hands it the
// same answers (the fleet-mates' surveys, markets, dangers and claims move on while it plays, and are not in its
// context), and the clock that dated what it learnt (a fleet-mate's view wins over its own when newer). Live, a
// recording port stands between the autopilot and the fleet; in a replay, a playback port answers
// from what was recorded. Writes (what the autopilot tells the fleet) go through live and nowhere in a replay.
import type { FleetKnowledgePort, SharedDanger, SharedMarketView, SharedSystemView } from '../../shared/index.js';

/** The reads of one decision: each present when it was read. */
export interface FleetReads {
  /** Present when the port handed out another array than the last time (the autopilot merges only then). */
  systems?: SharedSystemView[];
  dangers?: SharedDanger[];
  markets?: SharedMarketView[];
  /** `claimed(poi, item)` by `poi item`. */
  claimed?: Record<string, number>;
  /** The clock's readings (epoch ms), in order. */
  now?: number[];
}

const claimKey = (poiId: string, item: string): string => `${poiId} ${item}`;

/** Passes everything to the fleet's port, and keeps what was read since the last take(). */
export class RecordingFleetPort implements FleetKnowledgePort {
  private readonly port: FleetKnowledgePort;
  private reads: FleetReads = {};
  private lastSystems: readonly SharedSystemView[] | undefined;
  private readonly clock: () => number;

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
    this.reads.markets = [...views];
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
      this.reads.systems = [...views];
    }
    return views;
  }

  publishDanger(danger: Parameters<FleetKnowledgePort['publishDanger']>[0]): void {
    this.port.publishDanger(danger);
  }

  dangers(): SharedDanger[] {
    const dangers = this.port.dangers();
    this.reads.dangers = [...dangers];
    return dangers;
  }
}

/** Answers a replayed decision from its recorded reads; what it is told goes nowhere. */
export class PlaybackFleetPort implements FleetKnowledgePort {
  private reads: FleetReads = {};
  private systemsNow: readonly SharedSystemView[] = [];
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
    if (reads.systems) this.systemsNow = [...reads.systems];
  }

  publishMarket(): void {}

  markets(): SharedMarketView[] {
    return [...(this.reads.markets ?? [])];
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
    return [...(this.reads.dangers ?? [])];
  }
}

/** Recorded reads as stored (JSON), checked loosely: a field of the wrong kind is read as not read. */
export function fleetReadsOf(value: unknown): FleetReads {
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  const list = <T>(field: unknown): T[] | undefined => (Array.isArray(field) ? (field as T[]) : undefined);
  const systems = list<SharedSystemView>(record.systems);
  const dangers = list<SharedDanger>(record.dangers);
  const markets = list<SharedMarketView>(record.markets);
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
