// internal/store: SQLite (better-sqlite3) persistence for sessions, transcripts, usage, snapshots, turns, captain
// memory and game credentials; migrations; replay queries; transcript repair and export.
export { openStore, SqliteStore, type StoreOptions } from './sqlite-store.js';
export {
  CaptainLeases,
  captainHosts,
  liveWorkersOf,
  postgresOf,
  type CaptainLeaseHolder,
  type CaptainLeaseRecord,
} from './pg/captain-leases.js';
export { openPgStore, type PgStoreOptions } from './pg/index.js';
export { connectionPragmas } from './open.js';
export { resolveDatabasePath, databaseFileName } from './paths.js';
export { insertMessageSql, toMessageParams } from './rows.js';
export { migrate, migrations, schemaVersion, applicationId, type Migration } from './migrations.js';
export {
  currentLeaseHolder,
  defaultLeaseStaleMs,
  isLeaseStale,
  leaseRenewMs,
  processExists,
} from './session-leases.js';
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
export { checkSessionName, generateSessionName } from './session-names.js';
export type * from './types.js';
export type * from './request-types.js';
export type * from './fleet-types.js';
