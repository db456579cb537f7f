// What a fleet's captains learn for each other: the newest market view per station (bids, items nobody buys there),
// the systems they surveyed (POIs and lanes: routes without asking the game again), the places they came to harm
// (dangers, for a while) and the sales they are on their way to make. Each captain sees it through its own FleetKnowledgePort (the port the
// built-in autopilot reads); views go to the store so a restarted fleet keeps them with their age, claims live only
// in memory (they lapse within minutes anyway). Systems and dangers are stored the same way, as their own kinds. Every captain publishes on every market it reads, so the hot path
// allocates little and writes to the store only when what a station pays changed.
import { z } from 'zod';
import type {
  FleetKnowledgePort,
  SaleClaim,
  SharedDanger,
  SharedMarketView,
  SharedSystemView,
} from '../spacemolt/index.js';
import type { FleetTable, KnowledgeRecord } from '../store/index.js';

export const MARKET_KIND = 'market';
export const SYSTEM_KIND = 'system';
export const DANGER_KIND = 'danger';
const DEFAULT_CLAIM_MS = 120_000;
/** A danger is steered clear of for this long after it happened (minimolt's pirates strike at random, not for good). */
const DEFAULT_DANGER_MS = 10 * 60_000;

/** A station's view as the fleet holds it, with how old it is now. */
export type AgedMarketView = SharedMarketView & { ageMs: number };

export interface FleetKnowledgeOptions {
  fleet: string;
  store?: Pick<FleetTable, 'putKnowledge' | 'knowledge'>;
  /** A view that could not be stored (the database away): the fleet goes on with it in memory. */
  onStoreError?: (error: unknown) => void;
  /** Epoch ms; Date.now by default. */
  now?: () => number;
  /** How long a sale claim holds unless the claim says otherwise. */
  claimMs?: number;
  /** How long a danger is reported to the other captains. */
  dangerMs?: number;
}

/** A stored view: written by this module, but read back from a file anyone may have touched. */
const storedViewSchema = z.object({
  poiId: z.string().min(1),
  systemId: z.string(),
  name: z.string(),
  bids: z.record(z.string(), z.number()),
  noBuyers: z.array(z.string()),
});

const storedSystemSchema = z.object({
  systemId: z.string().min(1),
  name: z.string(),
  policeLevel: z.number().optional(),
  connections: z.array(z.string()),
  pois: z.array(
    z.object({ id: z.string().min(1), name: z.string(), type: z.string().optional(), hasBase: z.boolean() }),
  ),
});

const storedDangerSchema = z.object({ systemId: z.string().min(1), what: z.string() });

export class FleetKnowledge {
  private readonly fleet: string;
  private readonly store: FleetKnowledgeOptions['store'];
  private readonly now: () => number;
  private readonly claimMs: number;
  private readonly views = new Map<string, SharedMarketView>();
  /** `poiId item` -> captain -> claim: claimed() reads one small map. */
  private readonly claimsAt = new Map<string, Map<string, SaleClaim>>();
  /** `captain item` -> the claim it holds, so a new one replaces it wherever it was. */
  private readonly claimsOf = new Map<string, SaleClaim>();
  private readonly systemViews = new Map<string, SharedSystemView>();
  /** What systems() hands out: rebuilt only when a system is added or changes. */
  private systemList: readonly SharedSystemView[] = [];
  /** systemId -> captain -> the latest harm that captain came to there. */
  private readonly dangerViews = new Map<string, Map<string, SharedDanger>>();
  private readonly dangerMs: number;
  private updates = 0;
  /** Views written to the store one after another, in the background (the captains never wait on them). */
  private writes: Promise<void> = Promise.resolve();
  private readonly onStoreError: ((error: unknown) => void) | undefined;

  constructor(options: FleetKnowledgeOptions) {
    this.fleet = options.fleet;
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
    this.dangerMs = options.dangerMs ?? DEFAULT_DANGER_MS;
    this.onStoreError = options.onStoreError;
  }

  /** The fleet's knowledge with the views of earlier runs read from the store (each with its age). */
  static async open(options: FleetKnowledgeOptions): Promise<FleetKnowledge> {
    const knowledge = new FleetKnowledge(options);
    const store = options.store;
    if (store) {
      const [markets, systems, dangers] = await Promise.all([
        store.knowledge(options.fleet, MARKET_KIND),
        store.knowledge(options.fleet, SYSTEM_KIND),
        store.knowledge(options.fleet, DANGER_KIND),
      ]);
      knowledge.load(markets);
      knowledge.loadSystems(systems);
      knowledge.loadDangers(dangers);
    }
    return knowledge;
  }

  /** Resolves once every view handed to the store so far has been written (or failed and been told). */
  async settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.writes) {
      seen = this.writes;
      await seen;
    }
  }

  private put(record: Parameters<FleetTable['putKnowledge']>[0]): void {
    const store = this.store;
    if (!store) return;
    this.writes = this.writes
      .then(() => store.putKnowledge(record))
      .catch((error: unknown) => this.onStoreError?.(error));
  }

  /** The port one captain uses (its own views are left out of markets(); claimed() counts only the others' claims). */
  port(captain: string): FleetKnowledgePort {
    return {
      publishMarket: (view) => this.publish(captain, view),
      markets: () => this.marketsFor(captain),
      claimSale: (claim) => this.claim(captain, claim),
      claimed: (poiId, item) => this.claimedBy(captain, poiId, item),
      publishSystem: (view) => this.putSystem(captain, view),
      systems: () => this.systemList,
      publishDanger: (danger) => this.putDanger(captain, danger),
      dangers: () => this.dangersFor(captain),
    };
  }

  /** Every system the fleet surveyed, with its age. */
  systems(): Array<SharedSystemView & { ageMs: number }> {
    const now = this.now();
    return this.systemList.map((view) => ({ ...view, ageMs: Math.max(0, now - view.at) }));
  }

  /** The dangers still recent enough to steer clear of (every captain's), newest first, with their age. */
  dangers(): Array<SharedDanger & { ageMs: number }> {
    const now = this.now();
    return this.dangersFor(undefined)
      .map((danger) => ({ ...danger, ageMs: Math.max(0, now - danger.at) }))
      .sort((a, b) => a.ageMs - b.ageMs);
  }

  /** Every station known to the fleet, newest view per station, with its age. */
  markets(): AgedMarketView[] {
    return this.marketsFor(undefined);
  }

  stats(): { stations: number; systems: number; dangers: number; claims: number; updates: number } {
    const now = this.now();
    let claims = 0;
    for (const claim of this.claimsOf.values()) if (claim.until > now) claims += 1;
    const dangers = this.dangersFor(undefined).length;
    return { stations: this.views.size, systems: this.systemViews.size, dangers, claims, updates: this.updates };
  }

  /** The claims not yet lapsed, soonest to lapse first (for a model's prompt). */
  claims(): SaleClaim[] {
    const now = this.now();
    return [...this.claimsOf.values()].filter((claim) => claim.until > now).sort((a, b) => a.until - b.until);
  }

  private marketsFor(captain: string | undefined): AgedMarketView[] {
    const now = this.now();
    const out: AgedMarketView[] = [];
    for (const view of this.views.values()) {
      if (view.captain !== captain) out.push({ ...view, ageMs: Math.max(0, now - view.at) });
    }
    return out;
  }

  private publish(captain: string, input: Parameters<FleetKnowledgePort['publishMarket']>[0]): void {
    const poiId = input.poiId;
    if (!poiId) return;
    this.offer(MARKET_KIND, this.views, poiId, {
      at: input.at ?? this.now(),
      captain,
      same: (held) => sameMarket(held, input),
      view: (at) => ({
        poiId,
        systemId: input.systemId,
        name: input.name,
        at,
        bids: { ...input.bids },
        noBuyers: [...input.noBuyers],
        captain,
      }),
    });
  }

  private claim(captain: string, input: Parameters<FleetKnowledgePort['claimSale']>[0]): void {
    const mine = `${captain} ${input.item}`;
    const earlier = this.claimsOf.get(mine);
    if (earlier) {
      this.claimsAt.get(`${earlier.poiId} ${earlier.item}`)?.delete(captain);
      this.claimsOf.delete(mine);
    }
    if (!(input.quantity > 0) || !input.poiId) return;
    const claim: SaleClaim = {
      captain,
      poiId: input.poiId,
      item: input.item,
      quantity: input.quantity,
      until: this.now() + (input.forMs ?? this.claimMs),
    };
    this.claimsOf.set(mine, claim);
    const key = `${claim.poiId} ${claim.item}`;
    const there = this.claimsAt.get(key) ?? new Map<string, SaleClaim>();
    there.set(captain, claim);
    this.claimsAt.set(key, there);
  }

  private claimedBy(captain: string, poiId: string, item: string): number {
    const there = this.claimsAt.get(`${poiId} ${item}`);
    if (!there) return 0;
    const now = this.now();
    let total = 0;
    for (const claim of there.values()) {
      if (claim.captain !== captain && claim.until > now) total += claim.quantity;
    }
    return total;
  }

  private putSystem(captain: string, input: Parameters<FleetKnowledgePort['publishSystem']>[0]): void {
    const systemId = input.systemId;
    if (!systemId) return;
    const stored = this.offer(SYSTEM_KIND, this.systemViews, systemId, {
      at: input.at ?? this.now(),
      captain,
      same: (held) => sameSystem(held, input),
      view: (at) => ({
        systemId,
        name: input.name,
        policeLevel: input.policeLevel,
        connections: [...input.connections],
        pois: input.pois.map((poi) => ({ ...poi })),
        at,
        captain,
      }),
    });
    if (stored) this.systemList = [...this.systemViews.values()];
  }

  /**
   * Keeps the newest view per key (a market, a system): an older one is dropped; one a captain would decide nothing
   * differently on only refreshes the held view's age and who saw it — in memory only, so after a restart the view is
   * older than it was, which errs on the careful side; anything else replaces it and is stored. Returns whether it was
   * stored.
   */
  private offer<V extends { at: number; captain: string }>(
    kind: string,
    views: Map<string, V>,
    key: string,
    input: { at: number; captain: string; same: (held: V) => boolean; view: (at: number) => V },
  ): boolean {
    const { at, captain } = input;
    const held = views.get(key);
    if (held && held.at > at) return false;
    this.updates += 1;
    if (held && input.same(held)) {
      held.at = at;
      held.captain = captain;
      return false;
    }
    const view = input.view(at);
    views.set(key, view);
    const { captain: _who, at: _when, ...value } = view;
    this.put({ fleet: this.fleet, kind, key, value, captain, at });
    return true;
  }

  private putDanger(captain: string, input: Parameters<FleetKnowledgePort['publishDanger']>[0]): void {
    if (!input.systemId) return;
    const at = input.at ?? this.now();
    const there = this.dangerViews.get(input.systemId) ?? new Map<string, SharedDanger>();
    const held = there.get(captain);
    if (held && held.at > at) return;
    there.set(captain, { systemId: input.systemId, what: input.what, at, captain });
    this.dangerViews.set(input.systemId, there);
    this.updates += 1;
    const value = { systemId: input.systemId, what: input.what };
    this.put({
      fleet: this.fleet,
      kind: DANGER_KIND,
      key: `${input.systemId} ${captain}`,
      value,
      captain,
      at,
    });
  }

  /** Newest recent danger per system, reported by anyone but `captain`. */
  private dangersFor(captain: string | undefined): SharedDanger[] {
    const since = this.now() - this.dangerMs;
    const out: SharedDanger[] = [];
    for (const there of this.dangerViews.values()) {
      let newest: SharedDanger | undefined;
      for (const danger of there.values()) {
        if (danger.captain === captain || danger.at <= since) continue;
        if (!newest || danger.at > newest.at) newest = danger;
      }
      if (newest) out.push(newest);
    }
    return out;
  }

  private loadSystems(records: readonly KnowledgeRecord[]): void {
    for (const record of records) {
      const parsed = storedSystemSchema.safeParse(record.value);
      if (!parsed.success) continue;
      const held = this.systemViews.get(parsed.data.systemId);
      if (held && held.at > record.learnedAt) continue;
      const pois = parsed.data.pois.map(({ type, ...poi }) => ({ ...poi, ...(type !== undefined ? { type } : {}) }));
      this.systemViews.set(parsed.data.systemId, {
        ...parsed.data,
        pois,
        at: record.learnedAt,
        captain: record.captain,
      });
    }
    this.systemList = [...this.systemViews.values()];
  }

  private loadDangers(records: readonly KnowledgeRecord[]): void {
    for (const record of records) {
      const parsed = storedDangerSchema.safeParse(record.value);
      if (!parsed.success) continue;
      const there = this.dangerViews.get(parsed.data.systemId) ?? new Map<string, SharedDanger>();
      there.set(record.captain, { ...parsed.data, at: record.learnedAt, captain: record.captain });
      this.dangerViews.set(parsed.data.systemId, there);
    }
  }

  /** The fleet's views from an earlier run, each with the time it was learned (so its age carries over). */
  private load(records: readonly KnowledgeRecord[]): void {
    for (const record of records) {
      const parsed = storedViewSchema.safeParse(record.value);
      // A row this version cannot read is left in the store and ignored: the next view of that station replaces it.
      if (!parsed.success) continue;
      const held = this.views.get(parsed.data.poiId);
      if (held && held.at > record.learnedAt) continue;
      this.views.set(parsed.data.poiId, { ...parsed.data, at: record.learnedAt, captain: record.captain });
    }
  }
}

function sameMarket(a: SharedMarketView, b: { bids: Record<string, number>; noBuyers: readonly string[] }): boolean {
  if (a.noBuyers.length !== b.noBuyers.length || a.noBuyers.some((item, i) => b.noBuyers[i] !== item)) return false;
  let count = 0;
  for (const item in b.bids) {
    if (a.bids[item] !== b.bids[item]) return false;
    count += 1;
  }
  return count === Object.keys(a.bids).length;
}

function sameSystem(
  a: SharedSystemView,
  b: Pick<SharedSystemView, 'name' | 'policeLevel' | 'connections' | 'pois'>,
): boolean {
  if (a.name !== b.name || a.policeLevel !== b.policeLevel) return false;
  if (a.connections.length !== b.connections.length || a.connections.some((c, i) => b.connections[i] !== c))
    return false;
  if (a.pois.length !== b.pois.length) return false;
  return a.pois.every((poi, i) => {
    const other = b.pois[i];
    return other?.id === poi.id && other.name === poi.name && other.type === poi.type && other.hasBase === poi.hasBase;
  });
}
