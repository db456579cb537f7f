// What a fleet's captains learn for each other: the newest market view per station (bids, items nobody buys there)
// and the sales they are on their way to make. Each captain sees it through its own FleetKnowledgePort (the port the
// built-in autopilot reads); views go to the store so a restarted fleet keeps them with their age, claims live only
// in memory (they lapse within minutes anyway). Every captain publishes on every market it reads, so the hot path
// allocates little and writes to the store only when what a station pays changed.
import { z } from 'zod';
import type { FleetKnowledgePort, SaleClaim, SharedMarketView } from '../shared/index.js';
import type { FleetStore } from '../store/index.js';

export const MARKET_KIND = 'market';
const DEFAULT_CLAIM_MS = 120_000;

/** A station's view as the fleet holds it, with how old it is now. */
export type AgedMarketView = SharedMarketView & { ageMs: number };

export interface FleetKnowledgeOptions {
  fleet: string;
  store?: Pick<FleetStore, 'putKnowledge' | 'knowledge'>;
  /** Epoch ms; Date.now by default. */
  now?: () => number;
  /** How long a sale claim holds unless the claim says otherwise. */
  claimMs?: number;
}

/** A stored view: written by this module, but read back from a file anyone may have touched. */
const storedViewSchema = z.object({
  poiId: z.string().min(1),
  systemId: z.string(),
  name: z.string(),
  bids: z.record(z.string(), z.number()),
  noBuyers: z.array(z.string()),
});

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
  private updates = 0;

  constructor(options: FleetKnowledgeOptions) {
    this.fleet = options.fleet;
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
    this.load();
  }

  /** The port one captain uses (its own views are left out of markets(); claimed() counts only the others' claims). */
  port(captain: string): FleetKnowledgePort {
    return {
      publishMarket: (view) => this.publish(captain, view),
      markets: () => this.marketsFor(captain),
      claimSale: (claim) => this.claim(captain, claim),
      claimed: (poiId, item) => this.claimedBy(captain, poiId, item),
    };
  }

  /** Every station known to the fleet, newest view per station, with its age. */
  markets(): AgedMarketView[] {
    return this.marketsFor(undefined);
  }

  stats(): { stations: number; claims: number; updates: number } {
    const now = this.now();
    let claims = 0;
    for (const claim of this.claimsOf.values()) if (claim.until > now) claims += 1;
    return { stations: this.views.size, claims, updates: this.updates };
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
    if (!input.poiId) return;
    const at = input.at ?? this.now();
    const held = this.views.get(input.poiId);
    if (held && held.at > at) return;
    this.updates += 1;
    if (held && sameMarket(held, input)) {
      // Nothing a captain would decide differently on: the age (and who saw it) is refreshed in memory only; after a
      // restart the view is older than it was, which errs on the careful side.
      held.at = at;
      held.captain = captain;
      return;
    }
    const view: SharedMarketView = {
      poiId: input.poiId,
      systemId: input.systemId,
      name: input.name,
      at,
      bids: { ...input.bids },
      noBuyers: [...input.noBuyers],
      captain,
    };
    this.views.set(view.poiId, view);
    const { captain: _who, at: _when, ...value } = view;
    this.store?.putKnowledge({ fleet: this.fleet, kind: MARKET_KIND, key: view.poiId, value, captain, at });
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

  /** The fleet's views from an earlier run, each with the time it was learned (so its age carries over). */
  private load(): void {
    for (const record of this.store?.knowledge(this.fleet, MARKET_KIND) ?? []) {
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
