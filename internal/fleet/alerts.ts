// The fleet's alerts: rules over facts the fleet already has (a captain's state, its actions and the game's tick, its
// turns, the governor's ladder, the game's events), evaluated where the facts arrive. Pure: facts in, alerts out.
// Each alert fires once per captain per episode — keyed (rule, captain and what the episode is about) — and is
// re-armed when its condition clears (the captain acts again, leaves the parked state, has a good turn…), so a
// condition that holds for an hour is one alert, not one per look. Delivery (webhook, terminal, store) is the runner's.
import type { CaptainState } from '../store/index.js';
import type { GameEvent } from '../shared/index.js';
import { isAttackEvent } from '../session/index.js';
import type { LadderStep } from './types.js';

export const ALERT_RULES = [
  'stalled',
  'parked',
  'error_streak',
  'budget_step',
  'attacked',
  'spoken_to',
  'done',
] as const;
export type AlertRuleName = (typeof ALERT_RULES)[number];

export const DEFAULT_STALLED_TICKS = 30;
export const DEFAULT_ERROR_TURNS = 3;

/** One rule as configured: on for every captain, or for those named; thresholds where the rule has one. */
export interface AlertRule {
  rule: AlertRuleName;
  /** Captains the rule watches; absent: the whole fleet. */
  captains?: string[];
  /** stalled: ticks without a game action. */
  ticks?: number;
  /** error_streak: failed turns in a row. */
  turns?: number;
}

export type AlertFormat = 'json' | 'discord' | 'slack';

export interface AlertConfig {
  rules: AlertRule[];
  webhook?: string;
  format: AlertFormat;
  /** The `skipper web` page's address, for absolute links (else links are the page's path and hash only). */
  page?: string;
}

/** Every rule, for every captain, with its default threshold (`--alert-webhook` alone, or `alerts:` without rules). */
export function allAlertRules(): AlertRule[] {
  return ALERT_RULES.map((rule) =>
    rule === 'stalled'
      ? { rule, ticks: DEFAULT_STALLED_TICKS }
      : rule === 'error_streak'
        ? { rule, turns: DEFAULT_ERROR_TURNS }
        : { rule },
  );
}

/** What the fleet knows, one fact at a time. */
export type AlertFact =
  /** The periodic look: the game's tick, the captain's game actions so far and its state. */
  | { type: 'progress'; captain: string; tick: number; actions: number; state: CaptainState }
  /** The captain's state changed; `note` says why (who parked it). */
  | { type: 'state'; captain: string; state: CaptainState; note?: string }
  | { type: 'turn-start'; captain: string; turn: number }
  | { type: 'turn-end'; captain: string; turn: number; failed: boolean }
  | { type: 'ladder'; captain: string; from: LadderStep; to: LadderStep; reason: string }
  /** The game's events read for a turn; `names` are the words that name the captain (its name, its username). */
  | { type: 'game-events'; captain: string; events: readonly GameEvent[]; names: readonly string[] };

export interface Alert {
  type: 'alert';
  rule: AlertRuleName;
  captain: string;
  fleet: string;
  /** One line a person reads. */
  text: string;
  /** Epoch ms. */
  at: number;
  /** The captain's turn when it fired (the moment the link points at), when known. */
  turn?: number;
  /** The moment on the `skipper web` page: `/#captain=NAME&turn=N`. */
  link: string;
}

interface CaptainFacts {
  turn?: number;
  actions?: number;
  /** The tick of the last action seen (or of the first look). */
  actedAt?: number;
  state?: CaptainState;
  /** The state at the last periodic look: stalling is counted from the first look that found it playing. */
  lookedState?: CaptainState;
  failedTurns: number;
}

/** Whether someone's words name the captain (whole word, any case); a name under 3 characters never matches. */
export function namesCaptain(event: GameEvent, names: readonly string[]): boolean {
  if (event.type !== 'said') return false;
  return names.some(
    (name) =>
      name.length >= 3 && new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(name)}($|[^A-Za-z0-9_-])`, 'i').test(event.text),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The link to a captain's moment on the page. */
export function alertLink(options: { captain: string; turn?: number; page?: string }): string {
  const hash = `#captain=${encodeURIComponent(options.captain)}${options.turn !== undefined ? `&turn=${options.turn}` : ''}`;
  if (!options.page) return `/${hash}`;
  const base = new URL(options.page);
  base.hash = hash;
  return base.toString();
}

export class AlertEngine {
  /** Keys of the alerts that fired and whose condition still holds. */
  private readonly active = new Set<string>();
  private readonly captains = new Map<string, CaptainFacts>();
  private readonly now: () => number;

  constructor(private readonly options: { fleet: string; config: AlertConfig; now?: () => number }) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A captain's state as stored by an earlier process: its episode goes on from there, so the state it is still in
   * (parked, finished) raises nothing when the new process reports it; leaving it re-arms the rule as usual.
   */
  restore(captain: string, state: CaptainState): void {
    const facts = this.facts(captain);
    facts.state = state;
    if (state === 'parked') this.active.add(`parked:${captain}`);
    if (state === 'finished') this.active.add(`done:${captain}`);
  }

  /** The alerts this fact raises (usually none). */
  observe(fact: AlertFact): Alert[] {
    const facts = this.facts(fact.captain);
    const out: Alert[] = [];
    const raise = (rule: AlertRuleName, key: string, text: string): void => {
      const alert = this.fire({ rule, captain: fact.captain, key, text, facts });
      if (alert) out.push(alert);
    };
    switch (fact.type) {
      case 'progress':
        this.onProgress(fact, facts, raise);
        break;
      case 'state':
        this.onState(fact, facts, raise);
        break;
      case 'turn-start':
        facts.turn = fact.turn;
        break;
      case 'turn-end':
        facts.turn = fact.turn;
        this.onTurnEnd(fact, facts, raise);
        break;
      case 'ladder':
        if (fact.to === 'model') this.clearPrefix(`budget_step:${fact.captain}:`);
        else
          raise(
            'budget_step',
            `budget_step:${fact.captain}:${fact.to}`,
            `budget step ${fact.from} → ${fact.to}: ${fact.reason}`,
          );
        break;
      case 'game-events':
        this.onGameEvents(fact, raise);
        break;
    }
    return out;
  }

  private facts(captain: string): CaptainFacts {
    let facts = this.captains.get(captain);
    if (!facts) {
      facts = { failedTurns: 0 };
      this.captains.set(captain, facts);
    }
    return facts;
  }

  private onProgress(
    fact: Extract<AlertFact, { type: 'progress' }>,
    facts: CaptainFacts,
    raise: (rule: AlertRuleName, key: string, text: string) => void,
  ): void {
    const key = `stalled:${fact.captain}`;
    // Only a playing captain can stall; the time it spent otherwise (parked, starting) does not count against it.
    const playedOn = fact.state === 'playing' && facts.lookedState === 'playing';
    facts.lookedState = fact.state;
    if (facts.actions !== fact.actions || !playedOn || facts.actedAt === undefined) {
      if (facts.actions !== undefined && facts.actions !== fact.actions) this.active.delete(key);
      facts.actions = fact.actions;
      facts.actedAt = fact.tick;
      return;
    }
    const rule = this.rule('stalled', fact.captain);
    const ticks = rule?.ticks ?? DEFAULT_STALLED_TICKS;
    const idle = fact.tick - facts.actedAt;
    if (rule && idle >= ticks) raise('stalled', key, `stalled: no game action for ${idle} ticks`);
  }

  private onState(
    fact: Extract<AlertFact, { type: 'state' }>,
    facts: CaptainFacts,
    raise: (rule: AlertRuleName, key: string, text: string) => void,
  ): void {
    const before = facts.state;
    facts.state = fact.state;
    if (fact.state !== 'parked') this.active.delete(`parked:${fact.captain}`);
    if (fact.state !== 'finished') this.active.delete(`done:${fact.captain}`);
    if (fact.state !== 'playing') this.active.delete(`stalled:${fact.captain}`);
    if (fact.state === before) return;
    if (fact.state === 'parked') raise('parked', `parked:${fact.captain}`, fact.note ?? 'parked');
    else if (fact.state === 'finished')
      raise('done', `done:${fact.captain}`, `finished${fact.note ? `: ${fact.note}` : ''}`);
  }

  private onTurnEnd(
    fact: Extract<AlertFact, { type: 'turn-end' }>,
    facts: CaptainFacts,
    raise: (rule: AlertRuleName, key: string, text: string) => void,
  ): void {
    const key = `error_streak:${fact.captain}`;
    if (!fact.failed) {
      facts.failedTurns = 0;
      this.active.delete(key);
      return;
    }
    facts.failedTurns += 1;
    const turns = this.rule('error_streak', fact.captain)?.turns ?? DEFAULT_ERROR_TURNS;
    if (facts.failedTurns >= turns) raise('error_streak', key, `${facts.failedTurns} failed turns in a row`);
  }

  private onGameEvents(
    fact: Extract<AlertFact, { type: 'game-events' }>,
    raise: (rule: AlertRuleName, key: string, text: string) => void,
  ): void {
    const attack = fact.events.find(isAttackEvent);
    const attackKey = `attacked:${fact.captain}`;
    // A read of the game's events with no attack in it ends the episode: the next attack is a new one.
    if (!attack) this.active.delete(attackKey);
    else raise('attacked', attackKey, `attacked: ${eventText(attack)}`);
    const spoken = fact.events.filter((event) => namesCaptain(event, fact.names));
    const spokenPrefix = `spoken_to:${fact.captain}:`;
    const speakers = new Set(spoken.map((event) => (event.type === 'said' ? event.from : '')));
    for (const key of [...this.active])
      if (key.startsWith(spokenPrefix) && !speakers.has(key.slice(spokenPrefix.length))) this.active.delete(key);
    for (const event of spoken)
      if (event.type === 'said')
        raise('spoken_to', `${spokenPrefix}${event.from}`, `${event.from} said: “${oneLine(event.text, 160)}”`);
  }

  private rule(name: AlertRuleName, captain: string): AlertRule | undefined {
    return this.options.config.rules.find(
      (rule) => rule.rule === name && (rule.captains === undefined || rule.captains.includes(captain)),
    );
  }

  private clearPrefix(prefix: string): void {
    for (const key of [...this.active]) if (key.startsWith(prefix)) this.active.delete(key);
  }

  private fire(options: {
    rule: AlertRuleName;
    captain: string;
    key: string;
    text: string;
    facts: CaptainFacts;
  }): Alert | undefined {
    if (!this.rule(options.rule, options.captain) || this.active.has(options.key)) return undefined;
    this.active.add(options.key);
    const turn = options.facts.turn;
    return {
      type: 'alert',
      rule: options.rule,
      captain: options.captain,
      fleet: this.options.fleet,
      text: options.text,
      at: this.now(),
      ...(turn !== undefined ? { turn } : {}),
      link: alertLink({
        captain: options.captain,
        ...(turn !== undefined ? { turn } : {}),
        ...(this.options.config.page ? { page: this.options.config.page } : {}),
      }),
    };
  }
}

function eventText(event: GameEvent): string {
  return oneLine(event.type === 'unread' ? event.text : `${event.kind}: ${event.text}`, 160);
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
