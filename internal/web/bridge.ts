// The bridge's picture of the store: one card per captain (a stored session, joined with its fleet row when a fleet
// runs it), the galaxy the captains have seen, and what changed since the last look. `poll()` is the only reader of
// the store here: it asks cheap questions first (listSessions' counts, the fleet rows' updated_at) and reads messages
// and snapshots only of sessions that moved, from their last turn on — never a transcript whole. A session seen for
// the first time is read from its last turn; its older turns (the map the captain fetched, its action count) are
// caught up oldest first, a bounded number of messages per poll, so the server listens at once over a big home and
// no poll blocks it for long. Polls never overlap: one asked for while another reads waits for it (the picture is
// one reader's). A captain's figures (ticks, credits, net worth, tick utilisation…) are the session's own
// (storedFigures, the figures `sessions --json` and `report --json` write, under the same names): read once the session
// is caught up and again when its turn count moves, at most once per `figuresEveryMs`, each session's transcript
// through its own TranscriptReader (the whole transcript once, then only what was stored since). A poll lets the
// event loop turn between sessions (and between pages of a catch-up), so the page's requests are answered while a
// big home is read rather than after.
import type { Message } from '../shared/index.js';
import { splitUntrusted, type TextSegment } from '../game/index.js';
import {
  isSkipperPrompt,
  storedFigures,
  storedFiguresJson,
  TranscriptReader,
  type StoredFiguresJson,
} from '../session/index.js';
import {
  captainHosts,
  type FleetCaptainRecord,
  type FleetEvent,
  type SessionSummary,
  type SnapshotRecord,
  type Store,
} from '../store/index.js';
import { detailsOf, observationOf, type GameObservation } from '../spacemolt/index.js';
import { actionSentence, isAction, nameFor } from './action-sentence.js';
import { Galaxy } from './galaxy.js';

/** Systems a card's trail keeps (the most recent first visited last). */
const TRAIL_LENGTH = 12;
/** Old messages read per poll while catching up (about 50 ms of reading); the live turns are read besides. */
export const CATCH_UP_MESSAGES = 5000;
/** A moving captain's figures are read again at most this often (they scan its transcript). */
export const FIGURES_EVERY_MS = 2000;

export interface CaptainCard {
  sessionId: string;
  name: string;
  game: string;
  model: string;
  goal: string | null;
  status: string;
  turns: number;
  messages: number;
  tokens: number;
  costUsd: number;
  lastActiveAt: number;
  /** When the session was made (epoch ms): the cost plot's left edge. */
  createdAt: number;
  snapshot: SnapshotRecord | null;
  /** Recent (system, poi) places, oldest first, ending where the ship is. */
  trail: Array<{ systemId: string; poiId: string | null; tick: number }>;
  /** The last action in words, with the game's names ("mined 7 Platinum Ore at Vexuth Major Ice Field"). */
  lastAction: string | null;
  /** The session's own figures (session-figures.ts), under the names every --json writes; null until read. */
  figures: StoredFiguresJson | null;
  /** The game calls the same read counted: tool results, those refused (by error code), successful actions. */
  calls: { toolCalls: number; failedCalls: number; actions: number; errorsByCode: Record<string, number> } | null;
  /** Net worth at the first snapshot (what the cost buys is measured from it), when known. */
  net_worth_start: number | null;
  /** `host`: where the captain plays — its worker's host (captains leased over PostgreSQL), else the fleet's. */
  fleet: (FleetCaptainRecord & { fleetState: string; host: string | null }) | null;
}

export type BridgeChange =
  | { type: 'captain'; card: CaptainCard }
  | { type: 'message'; sessionId: string; message: StreamItem }
  | { type: 'galaxy'; version: number }
  | { type: 'alert'; alert: WebAlert };

/** An alert a fleet raised (stored as a fleet event of kind `alert`), as the page lists it. */
export interface WebAlert {
  seq: number;
  fleet: string;
  captain: string | null;
  rule: string;
  text: string;
  at: number;
  turn: number | null;
  link: string;
}

/** Alerts the page is given on load (the newest). */
const RECENT_ALERTS = 100;
/** Fleet events read per query while looking for alerts, and queries per fleet per poll (a long history is caught
 * up over several polls, none of them long). */
const EVENTS_PAGE = 500;
const EVENT_PAGES_PER_POLL = 4;

/** What the stream shows of a stored message: text only, cut to a readable size. */
export interface StreamItem {
  id: string;
  seq: number;
  turn: number | null;
  role: string;
  /** Who wrote it, as the page says: `skipper` for the prompts Skipper wrote (autoplay's), else the role. */
  speaker: string;
  text: string;
  /** The text in pieces: someone else's words (`untrusted`, with their source and speaker) apart, without markup. */
  segments: TextSegment[];
  toolCalls: Array<{ name: string; arguments: string }>;
  toolName: string | null;
  isError: boolean;
  createdAt: number;
}

const TEXT_LIMIT = 4000;

export function streamItem(message: Message, seq: number): StreamItem {
  const text = message.content.length > TEXT_LIMIT ? `${message.content.slice(0, TEXT_LIMIT)}…` : message.content;
  const segments = splitUntrusted(text);
  return {
    id: message.id,
    seq,
    turn: message.turn ?? null,
    role: message.role,
    speaker: message.role === 'user' && isSkipperPrompt(message.content) ? 'skipper' : message.role,
    text: segments.map((segment) => segment.text).join(''),
    segments,
    toolCalls: (message.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.arguments.slice(0, 500) })),
    toolName: message.toolName ?? null,
    isError: message.isError === true,
    createdAt: message.createdAt,
  };
}

/** "travel sol_belt", "mine", "sell iron_ore": the call's name and its first argument value (the counterfactual view
 * compares calls as they were made). */
export function actionLine(name: string, args: string): string {
  try {
    const parsed = JSON.parse(args) as unknown;
    if (parsed && typeof parsed === 'object') {
      const first = Object.values(parsed).find((value) => typeof value === 'string' || typeof value === 'number');
      if (first !== undefined) return `${name} ${String(first)}`.slice(0, 120);
    }
  } catch {
    // arguments the model got wrong: the name alone says enough
  }
  return name;
}

/** "travel Sol Belt", "mine": a call not answered yet (or answered by no game the bridge reads), in words. */
export function callInWords(name: string, args: string, nameOf: (id: string) => string | undefined): string {
  let action = name;
  let target: string | undefined;
  try {
    const parsed = JSON.parse(args) as unknown;
    if (parsed && typeof parsed === 'object') {
      const { action: given, ...rest } = parsed as Record<string, unknown>;
      if (typeof given === 'string') action = given;
      const first = Object.values(rest).find((value) => typeof value === 'string' || typeof value === 'number');
      if (first !== undefined) target = String(first);
    }
  } catch {
    // arguments the model got wrong: the name alone says enough
  }
  const words = nameFor(action, nameOf).toLowerCase();
  return (target === undefined ? words : `${words} ${nameFor(target, nameOf)}`).slice(0, 120);
}

/** What a captain did last, kept as data so its words can use names learnt later. */
interface LastAction {
  /** The answer to the last action (its observation) and the POI the ship was at. */
  acted: { observation: GameObservation; poiId: string | null } | null;
  /** A call sent after it, not answered yet (`answered` false) or answered by a text the bridge cannot read. */
  calling: { name: string; args: string; answered: boolean } | null;
  /** Where the ship is, as the answers said. */
  poiId: string | null;
}

interface Tracked {
  card: CaptainCard;
  last: LastAction;
  /** The turn read up to (messages of this turn may still be arriving). */
  turn: number;
  /** Ids already read in `turn`, so a re-read of the turn yields only new messages. */
  seenInTurn: Set<string>;
  seq: number;
  /** Message count at the last read. */
  messages: number;
  fleetUpdatedAt: number;
  /** Turns [next, end) not read yet (older than the turn the bridge started at); null when caught up. */
  backlog: { next: number; end: number; last: LastAction } | null;
  /** The turn count and the time the figures were last read at (-1 and 0 before the first read). */
  figuresTurns: number;
  figuresAt: number;
  /** The first snapshot's tick, once read (null before). */
  firstTick: number | null;
  /** The session's transcript as its figures read it: kept, so a re-read reads only what was stored since. */
  transcript: TranscriptReader;
}

export class Bridge {
  readonly galaxy = new Galaxy();
  private readonly tracked = new Map<string, Tracked>();
  private readonly byName = new Map<string, string>();
  /** The poll in flight (or the last one), settled either way: the next poll starts after it. */
  private last: Promise<unknown> = Promise.resolve();
  /** Per fleet, the last fleet event read. */
  private readonly eventSeq = new Map<string, number>();
  private readonly recentAlerts: WebAlert[] = [];
  /** Alerts stored before the bridge started are listed, not announced (no notification for yesterday's). */
  private readonly startedAt: number;

  constructor(
    private readonly store: Store,
    private readonly options: { catchUpMessages?: number; figuresEveryMs?: number; now?: () => number } = {},
  ) {
    this.startedAt = (options.now ?? Date.now)();
  }

  /** The newest alerts, oldest first. */
  alerts(): WebAlert[] {
    return [...this.recentAlerts];
  }

  /** Sessions whose older turns are still being read. */
  catchingUp(): number {
    let count = 0;
    for (const entry of this.tracked.values()) if (entry.backlog) count += 1;
    return count;
  }

  cards(): CaptainCard[] {
    return [...this.tracked.values()].map((entry) => entry.card);
  }

  card(sessionId: string): CaptainCard | undefined {
    return this.tracked.get(sessionId)?.card;
  }

  /**
   * Looks at the store once; resolves to what changed (the first poll reports every captain). Called while another
   * poll reads, it starts once that one is done. Rejects when the store does (the next poll reads again).
   */
  poll(): Promise<BridgeChange[]> {
    const run = this.last.then(() => this.pollOnce());
    this.last = run.catch(() => undefined);
    return run;
  }

  /** Resolves once no poll is reading (the store may be closed then). */
  async idle(): Promise<void> {
    await this.last;
  }

  private async pollOnce(): Promise<BridgeChange[]> {
    const changes: BridgeChange[] = [];
    const galaxyBefore = this.galaxy.version;
    for (const summary of await this.store.listSessions()) {
      await this.pollSession(summary, changes);
      await nextTurnOfTheLoop();
    }
    await this.pollFleets(changes);
    await this.pollAlerts(changes);
    await this.catchUp(changes);
    for (const entry of this.tracked.values()) if (await this.readFigures(entry, changes)) await nextTurnOfTheLoop();
    // Worded last: a name learnt in this poll (from any captain's answers) reaches every card.
    for (const entry of this.tracked.values()) this.wordLastAction(entry, changes);
    if (this.galaxy.version !== galaxyBefore) changes.push({ type: 'galaxy', version: this.galaxy.version });
    return changes;
  }

  private async pollSession(summary: SessionSummary, changes: BridgeChange[]): Promise<void> {
    const { session } = summary;
    let entry = this.tracked.get(session.id);
    const fresh = !entry;
    if (!entry) {
      entry = newTracked(this.store, summary, await this.store.lastTurn(session.id));
      this.tracked.set(session.id, entry);
      this.byName.set(session.name, session.id);
    }
    const card = entry.card;
    const moved = fresh || summary.messages !== entry.messages || card.status !== session.status;
    const costMoved = card.costUsd !== summary.costUsd || card.goal !== session.goal;
    Object.assign(card, {
      name: session.name,
      model: session.model,
      goal: session.goal,
      status: session.status,
      turns: summary.turns,
      messages: summary.messages,
      tokens: summary.tokens,
      costUsd: summary.costUsd,
      lastActiveAt: summary.lastActiveAt,
    });
    if (moved) {
      await this.readNewMessages(entry, changes, fresh);
      await this.readSnapshots(entry);
      entry.messages = summary.messages;
    }
    if (moved || costMoved) changes.push({ type: 'captain', card });
  }

  private async readNewMessages(entry: Tracked, changes: BridgeChange[], fresh: boolean): Promise<void> {
    const sessionId = entry.card.sessionId;
    for await (const message of this.store.iterateMessages(sessionId, { fromTurn: entry.turn })) {
      const turn = message.turn ?? entry.turn;
      if (turn > entry.turn) {
        entry.turn = turn;
        entry.seenInTurn.clear();
      }
      if (entry.seenInTurn.has(message.id)) continue;
      entry.seenInTurn.add(message.id);
      entry.seq += 1;
      this.galaxy.ingest(message);
      noteAction(entry.last, message);
      if (!fresh) changes.push({ type: 'message', sessionId, message: streamItem(message, entry.seq) });
    }
  }

  /** Reads old turns, oldest first, until the budget is spent (whole turns only, so none is counted twice). */
  private async catchUp(changes: BridgeChange[]): Promise<void> {
    let budget = this.options.catchUpMessages ?? CATCH_UP_MESSAGES;
    for (const entry of this.tracked.values()) {
      if (budget <= 0) return;
      const backlog = entry.backlog;
      if (!backlog) continue;
      budget -= await this.readBacklog(entry, backlog, budget);
      await nextTurnOfTheLoop();
      if (backlog.next < backlog.end) continue;
      entry.backlog = null;
      if (!entry.last.acted && !entry.last.calling)
        entry.last = { ...backlog.last, poiId: entry.last.poiId ?? backlog.last.poiId };
      await this.readSnapshots(entry);
      changes.push({ type: 'captain', card: entry.card });
    }
  }

  /** Returns the messages read. */
  private async readBacklog(entry: Tracked, backlog: NonNullable<Tracked['backlog']>, budget: number): Promise<number> {
    let read = 0;
    let turn = backlog.next;
    const range = { fromTurn: backlog.next, toTurn: backlog.end - 1 };
    for await (const message of this.store.iterateMessages(entry.card.sessionId, range)) {
      const at = message.turn ?? turn;
      if (at > turn && read >= budget) {
        backlog.next = at;
        return read;
      }
      turn = at;
      read += 1;
      this.galaxy.ingest(message);
      noteAction(backlog.last, message);
    }
    backlog.next = backlog.end;
    return read;
  }

  /** The last snapshots only (the trail). */
  private async readSnapshots(entry: Tracked): Promise<void> {
    const recent = await this.store.snapshots(entry.card.sessionId, { last: TRAIL_LENGTH * 4 });
    entry.card.snapshot = recent.at(-1) ?? null;
    entry.card.trail = trailOf(recent);
    if (entry.firstTick === null && !entry.backlog) {
      const first = (await this.store.snapshots(entry.card.sessionId))[0];
      entry.firstTick = first?.tick ?? null;
      entry.card.net_worth_start = first?.netWorth ?? null;
    }
  }

  private wordLastAction(entry: Tracked, changes: BridgeChange[]): void {
    const nameOf = (id: string): string | undefined => this.galaxy.nameOf(id);
    const { acted, calling } = entry.last;
    const words = calling
      ? `${callInWords(calling.name, calling.args, nameOf)}${calling.answered ? '' : ' (waiting for the game)'}`
      : acted
        ? actionSentence(acted.observation, { nameOf, poiId: acted.poiId })
        : null;
    if (words === entry.card.lastAction) return;
    entry.card.lastAction = words;
    if (!changes.some((change) => change.type === 'captain' && change.card === entry.card))
      changes.push({ type: 'captain', card: entry.card });
  }

  /** The session's figures, once it is caught up and whenever its turns moved (not more often than figuresEveryMs).
   * Resolves to whether they were read. */
  private async readFigures(entry: Tracked, changes: BridgeChange[]): Promise<boolean> {
    const now = (this.options.now ?? Date.now)();
    if (entry.backlog || entry.figuresTurns === entry.card.turns) return false;
    if (entry.figuresTurns >= 0 && now - entry.figuresAt < (this.options.figuresEveryMs ?? FIGURES_EVERY_MS))
      return false;
    entry.figuresTurns = entry.card.turns;
    entry.figuresAt = now;
    const stored = await storedFigures(this.store, entry.card.sessionId, { transcript: entry.transcript });
    entry.card.figures = storedFiguresJson(stored);
    entry.card.calls = {
      toolCalls: stored.toolCalls,
      failedCalls: stored.failedCalls,
      actions: stored.actions,
      errorsByCode: stored.errorsByCode,
    };
    if (!changes.some((change) => change.type === 'captain' && change.card === entry.card))
      changes.push({ type: 'captain', card: entry.card });
    return true;
  }

  private async pollFleets(changes: BridgeChange[]): Promise<void> {
    for (const fleet of await this.store.fleets.listFleets()) {
      const leased = await captainHosts(this.store, fleet.name);
      for (const captain of await this.store.fleets.captains(fleet.name)) {
        const sessionId = this.byName.get(captain.sessionName);
        const entry = sessionId ? this.tracked.get(sessionId) : undefined;
        if (!entry || entry.fleetUpdatedAt === captain.updatedAt) continue;
        entry.fleetUpdatedAt = captain.updatedAt;
        entry.card.fleet = { ...captain, fleetState: fleet.state, host: leased.get(captain.name)?.host ?? fleet.host };
        changes.push({ type: 'captain', card: entry.card });
      }
    }
  }

  /** The fleets' alerts stored since the last look (fleet events of kind `alert`). */
  private async pollAlerts(changes: BridgeChange[]): Promise<void> {
    for (const fleet of await this.store.fleets.listFleets()) {
      for (let page = 0; page < EVENT_PAGES_PER_POLL; page++) {
        const afterSeq = this.eventSeq.get(fleet.name) ?? 0;
        const events = await this.store.fleets.events(fleet.name, { afterSeq, limit: EVENTS_PAGE });
        for (const event of events) {
          this.eventSeq.set(fleet.name, event.seq);
          if (event.kind !== 'alert') continue;
          const alert = webAlert(event);
          this.recentAlerts.push(alert);
          if (this.recentAlerts.length > RECENT_ALERTS) this.recentAlerts.shift();
          if (alert.at >= this.startedAt) changes.push({ type: 'alert', alert });
        }
        if (events.length < EVENTS_PAGE) break;
      }
    }
  }
}

/** Lets the server answer the requests that arrived meanwhile (a poll over a big home otherwise holds it for long). */
function nextTurnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function webAlert(event: FleetEvent): WebAlert {
  const data = event.data as { rule?: unknown; turn?: unknown; link?: unknown };
  const turn = typeof data.turn === 'number' ? data.turn : null;
  const captain = event.captain ?? null;
  return {
    seq: event.seq,
    fleet: event.fleet,
    captain,
    rule: typeof data.rule === 'string' ? data.rule : 'alert',
    text: event.text,
    at: event.at,
    turn,
    link:
      typeof data.link === 'string'
        ? data.link
        : `/#captain=${encodeURIComponent(captain ?? '')}${turn !== null ? `&turn=${turn}` : ''}`,
  };
}

function newTracked(store: Store, summary: SessionSummary, lastTurn: number): Tracked {
  const { session } = summary;
  return {
    last: { acted: null, calling: null, poiId: null },
    card: {
      sessionId: session.id,
      name: session.name,
      game: session.game,
      model: session.model,
      goal: session.goal,
      status: session.status,
      turns: 0,
      messages: 0,
      tokens: 0,
      costUsd: 0,
      lastActiveAt: 0,
      createdAt: session.createdAt,
      snapshot: null,
      trail: [],
      lastAction: null,
      figures: null,
      calls: null,
      net_worth_start: null,
      fleet: null,
    },
    turn: lastTurn,
    seenInTurn: new Set(),
    seq: 0,
    messages: -1,
    fleetUpdatedAt: 0,
    backlog: lastTurn > 0 ? { next: 0, end: lastTurn, last: { acted: null, calling: null, poiId: null } } : null,
    figuresTurns: -1,
    figuresAt: 0,
    firstTick: null,
    transcript: new TranscriptReader(store, session.id),
  };
}

/**
 * Follows one message: a call is the last action until answered; an answer to an action is the last action; an
 * answer to a query leaves the action before it the last. Answers that say where the ship is move `poiId`.
 */
function noteAction(last: LastAction, message: Message): void {
  const call = message.toolCalls?.at(-1);
  if (message.role === 'assistant' && call) last.calling = { name: call.name, args: call.arguments, answered: false };
  if (message.role !== 'tool') return;
  const observation = observationOf(message.data);
  if (isAction(observation)) {
    last.acted = { observation, poiId: last.poiId };
    last.calling = null;
  } else if (observation.op) last.calling = null;
  else if (last.calling) last.calling.answered = true;
  const location = observation.location;
  if (location && location.poi_id !== undefined) last.poiId = location.poi_id;
  else if (observation.op === 'travel' && !observation.error)
    last.poiId = detailsOf('travel', observation.details)?.arrived_at ?? last.poiId;
}

/** The places of the last snapshots, a repeat of the same place folded into one. */
export function trailOf(snapshots: readonly SnapshotRecord[]): CaptainCard['trail'] {
  const trail: CaptainCard['trail'] = [];
  for (const snapshot of snapshots.slice(-TRAIL_LENGTH * 4)) {
    if (!snapshot.systemId) continue;
    const last = trail.at(-1);
    if (last && last.systemId === snapshot.systemId && last.poiId === snapshot.poiId) continue;
    trail.push({ systemId: snapshot.systemId, poiId: snapshot.poiId, tick: snapshot.tick });
  }
  return trail.slice(-TRAIL_LENGTH);
}
