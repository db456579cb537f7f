// internal/fleet: many captains in one process — the fleet file, the runner that leases its captains from the store
// and plays each as a full session, the broker for the machine's share of the game's limits, the budget governor,
// the watchdog and the knowledge the captains share. It uses the session engine, the game layer and the store; the
// CLI (`skipper fleet`) and the web page use it.
export { readFleetFile, parseFleetText } from './fleet-file.js';
export {
  AlertEngine,
  ALERT_RULES,
  allAlertRules,
  alertLink,
  type Alert,
  type AlertConfig,
  type AlertFact,
  type AlertFormat,
  type AlertRule,
  type AlertRuleName,
} from './alerts.js';
export { AlertWebhook, webhookBody, formatForUrl } from './alert-webhook.js';
export { FleetRunner, startOfUtcDay, type FleetRunnerOptions, type FleetSummary } from './fleet-runner.js';
export { FleetBroker, type BrokerOptions, type BrokerHealth } from './broker.js';
export { BudgetGovernor, type GovernorCaptain, type GovernorOptions } from './governor.js';
export { Watchdog, type WatchdogOptions, type WatchEvent } from './watchdog.js';
export { FleetKnowledge } from './shared-knowledge.js';
export { fleetKnowledgeBlock } from './knowledge-block.js';
export {
  FleetCaptain,
  type CaptainModels,
  type CaptainNotice,
  type CaptainResult,
  type FleetCaptainOptions,
} from './captain.js';
export type { CaptainLease, FleetGame } from './captain-session.js';
export { WorkerLeases, WorkerLoop, workerShare, endedCaptains, type FleetWorkerOptions } from './fleet-worker.js';
export type * from './types.js';
