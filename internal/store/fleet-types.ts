// What the store keeps of fleets: the fleet row (who runs it, its IP health), one row per captain (the figures
// `skipper fleet status` and the web page show), the orders people give a running fleet (stop, park, resume, a line
// for the captain), the fleet's event log (ladder steps, watchdog steps, broker waits) and the knowledge its
// captains share. The runner writes; status, the web page and the order commands read and add orders.

/** running: a process holds the fleet; stopped: it ended (or was killed: its pid is gone). */
export type FleetState = 'running' | 'stopped';

export interface FleetRecord {
  name: string;
  /** The fleet file it was started from (absolute). */
  file: string;
  state: FleetState;
  /** The process that runs it (when running). */
  pid: number | null;
  host: string | null;
  startedAt: number;
  updatedAt: number;
  /** The broker's figures: logins and refusals in the window, waits, "IP health" (see broker.ts). */
  health: Record<string, unknown>;
}

/** Where a captain is in its life. */
export type CaptainState = 'starting' | 'playing' | 'parked' | 'stopped' | 'finished' | 'failed';

/** The budget ladder, cheapest last: the captain's model, its fallback model, planner mode, the autopilot, parked. */
export type LadderStep = 'model' | 'fallback' | 'planner' | 'autopilot' | 'parked';

/** The watchdog's last step for the captain: ok, or the step it took (nudge, re-plan, autopilot, park). */
export type WatchdogStep = 'ok' | 'nudged' | 'replanned' | 'autopilot' | 'parked';

export interface FleetCaptainRecord {
  fleet: string;
  name: string;
  sessionName: string;
  /** The model playing now (the ladder may have changed it). */
  model: string;
  state: CaptainState;
  ladder: LadderStep;
  watchdog: WatchdogStep;
  /** UTC day (YYYY-MM-DD) that costToday counts. */
  costDay: string;
  costToday: number;
  credits: number | null;
  netWorth: number | null;
  /** "system / poi" as last seen. */
  place: string | null;
  tick: number | null;
  /** Game actions that went through in this fleet run and before (the session's). */
  actions: number;
  lastAction: string | null;
  /** Why it stopped, failed or was parked (one line). */
  note: string | null;
  updatedAt: number;
}

export type FleetCaptainUpdate = Partial<Omit<FleetCaptainRecord, 'fleet' | 'name' | 'updatedAt'>>;

export type FleetCommand = 'stop' | 'park' | 'resume' | 'order';

export interface FleetOrder {
  id: number;
  fleet: string;
  captain: string;
  command: FleetCommand;
  text: string | null;
  createdAt: number;
  takenAt: number | null;
}

export type FleetEventKind =
  | 'fleet'
  | 'captain'
  | 'ladder'
  | 'watchdog'
  | 'broker'
  | 'knowledge'
  | 'order'
  /** An alert rule fired (internal/fleet/alerts.ts): data holds `rule`, `link` and `turn`. */
  | 'alert';

export interface FleetEvent {
  seq: number;
  fleet: string;
  captain: string | null;
  kind: FleetEventKind;
  text: string;
  data: Record<string, unknown>;
  at: number;
}

export interface KnowledgeRecord {
  fleet: string;
  /** e.g. 'market' (a station's bids), 'no-buyers', 'danger', 'route'. */
  kind: string;
  key: string;
  value: unknown;
  /** The captain who learned it. */
  captain: string;
  learnedAt: number;
}

export interface FleetStore {
  /** Creates the fleet row or marks it running again under this process. */
  startFleet(input: { name: string; file: string; pid: number; host: string }): FleetRecord;
  /** Marks it stopped (a clean end). */
  stopFleet(name: string): void;
  setHealth(name: string, health: Record<string, unknown>): void;
  getFleet(name: string): FleetRecord | undefined;
  listFleets(): FleetRecord[];

  /** Inserts the captain's row or updates the fields given. */
  upsertCaptain(fleet: string, name: string, fields: FleetCaptainUpdate & { sessionName?: string }): FleetCaptainRecord;
  /** The same write, without reading the row back (a running captain's status, about once a second). */
  writeCaptain(fleet: string, name: string, fields: FleetCaptainUpdate & { sessionName?: string }): void;
  captains(fleet: string): FleetCaptainRecord[];
  captain(fleet: string, name: string): FleetCaptainRecord | undefined;

  /** An order for a running fleet (or the next run of it). */
  addOrder(input: { fleet: string; captain: string; command: FleetCommand; text?: string }): FleetOrder;
  /** The orders not yet taken, oldest first, marked taken in the same transaction. */
  takeOrders(fleet: string): FleetOrder[];

  addEvent(input: {
    fleet: string;
    captain?: string;
    kind: FleetEventKind;
    text: string;
    data?: Record<string, unknown>;
  }): FleetEvent;
  /** Events after `afterSeq` (default 0), oldest first, at most `limit` (default 500). */
  events(fleet: string, options?: { afterSeq?: number; captain?: string; limit?: number }): FleetEvent[];

  putKnowledge(input: { fleet: string; kind: string; key: string; value: unknown; captain: string; at?: number }): void;
  knowledge(fleet: string, kind?: string): KnowledgeRecord[];

  /** Model cost (USD) a session recorded since `sinceMs` (epoch ms): a captain's spend today after a restart. */
  sessionCostSince(sessionName: string, sinceMs: number): number;
}
