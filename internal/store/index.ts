// internal/store: the store's asynchronous contract (contract.ts) for sessions, transcripts, usage, snapshots, turns,
// leases, captain memory, game credentials, model requests, counterfactuals and fleets; its two engines (SQLite,
// PostgreSQL); the one migration list; replay queries; transcript repair and export.
export { openStore } from './open-store.js';
export { SqliteStore } from './sqlite/store.js';
export { type StoreOptions } from './sqlite-store.js';
export type * from './contract.js';
export { LEASE_RENEW_MS, LEASE_TTL_MS, leaseKey } from './lease-rules.js';
export {
  takeAndKeep,
  LeaseLostError,
  type HeldLease,
  type KeptLeaseTake,
  type LeaseKeeperOptions,
} from './lease-keeper.js';
export { captainHosts, captainLeaseKey, liveWorkersOf, workerLeaseKey } from './fleet-leases.js';
export { openPgStore, type PgStoreOptions } from './pg/index.js';
export { connectionPragmas } from './open.js';
export { resolveDatabasePath, databaseFileName } from './paths.js';
export { insertMessageSql, toMessageParams } from './rows.js';
export { migrate, migrations, schemaVersion, applicationId, type Migration } from './migrations.js';
export { currentLeaseHolder, processExists } from './session-leases.js';
export { captainId } from './memory-store.js';
export { snapshotFromDashboard } from './records.js';
export { repairDanglingToolCalls } from './repair.js';
export {
  createRedactor,
  redactMessage,
  redactValue,
  redactedMarker,
  stripUrlCredentials,
  urlCredentials,
  minimumSecretLength,
  type Redactor,
} from './redact.js';
export {
  exportSession,
  exportPieces,
  exportSessionToFile,
  createFileWriter,
  parseJsonlExport,
  shorten,
  exportFormatVersion,
  type ExportFormat,
  type ExportOptions,
  type ExportedSession,
} from './export.js';
export { checkSessionName, generateSessionName, generateSessionNameAsync } from './session-names.js';
// The row shapes; the synchronous engine's own interfaces (SyncStore, MemoryStore, FleetStore…) stay inside the store.
export type {
  AppendableMessage,
  CreateSessionInput,
  GameSnapshot,
  MemoryEntry,
  MemoryInput,
  MessageRange,
  Session,
  SessionStatus,
  SessionSummary,
  SnapshotInput,
  SnapshotRecord,
  TurnInputKind,
  TurnOutcome,
  TurnRecord,
  UpdateSessionInput,
  UsagePoint,
  UsageRecordInput,
  UsageTotals,
} from './types.js';
export type {
  CounterfactualDecision,
  CounterfactualRun,
  CounterfactualStatus,
  CounterfactualSummary,
  CounterfactualTotals,
  RequestOutcome,
  RequestRecord,
  RequestRecordInput,
  StoredRequest,
  Verdict,
} from './request-types.js';
export type {
  CaptainState,
  FleetCaptainRecord,
  FleetCaptainUpdate,
  FleetCommand,
  FleetEvent,
  FleetEventKind,
  FleetOrder,
  FleetRecord,
  FleetState,
  KnowledgeRecord,
  LadderStep,
  WatchdogStep,
} from './fleet-types.js';
