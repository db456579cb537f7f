// The fleet's shapes: a fleet file as read (fleet-file.ts), and the ports between the fleet runner and its parts
// (governor.ts, watchdog.ts, shared-knowledge.ts, broker.ts). The store's fleet rows are in internal/store.
import type { LadderStep, WatchdogStep } from '../store/index.js';
import type { EmpireId } from '../spacemolt/index.js';
import type { AlertConfig } from './alerts.js';

/** One captain of a fleet file, its fields over the file's `defaults:`; names are the play flags' long names. */
export interface CaptainSpec {
  /** Letters, digits, `-` and `_`; unique in the file. */
  name: string;
  /** The session it plays in (default: the captain's name): `skipper -s SESSION` resumes it alone. */
  session: string;
  /** `embedded` (one minimolt world shared by every embedded captain of the fleet) or a game URL. */
  game: string;
  /** A model id as --model takes it; default builtin/autopilot. */
  model: string;
  /** The cheaper model the budget ladder steps down to first. */
  fallbackModel?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  planner: boolean;
  plannerEvery?: number;
  goal?: string;
  maxTicks?: number;
  maxTurns?: number;
  /** Milliseconds. */
  duration?: number;
  /** Daily USD cap for this captain (the governor's ladder walks down as it nears). */
  budgetUsd?: number;
  budgetTokens?: number;
  username?: string;
  /** Name of the environment variable holding the account's password (never the password itself). */
  passwordEnv?: string;
  registrationCodeEnv?: string;
  /** The empire a new account registers with (solarian when absent); an existing account keeps its own. */
  empire?: EmpireId;
  /** Embedded minimolt: tick length and world seed (the first embedded captain's values make the world). */
  tickMs?: number;
  seed?: number;
}

export interface FleetSpec {
  /** The fleet's name (top-level `name:`, default the file's base name without extension). */
  name: string;
  /** The file, absolute. */
  file: string;
  /** Daily USD cap for the whole fleet (top-level `budget_usd:`). */
  budgetUsd?: number;
  captains: CaptainSpec[];
  /** The file's `alerts:` block (alerts.ts): its rules, and the webhook they are posted to. */
  alerts?: AlertConfig;
}

/** What the governor tells the runner: a captain must move to another ladder step (logged and shown). */
export interface LadderChange {
  captain: string;
  from: LadderStep;
  to: LadderStep;
  /** One line: "spent $0.61 of $1.00 today (61%): fallback model gpt-4o-mini". */
  reason: string;
}

/** What the watchdog asks the runner to do for a captain, in escalating order. */
export type WatchdogAction =
  | { kind: 'nudge'; text: string; reason: string }
  | { kind: 'replan'; reason: string }
  | { kind: 'autopilot'; reason: string }
  | { kind: 'park'; reason: string }
  | { kind: 'recovered'; reason: string };

export type { LadderStep, WatchdogStep };

export type { SharedMarketView, SaleClaim, FleetKnowledgePort } from '../spacemolt/index.js';
