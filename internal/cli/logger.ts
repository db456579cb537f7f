// The file logger (rule 16): pino writing to $SKIPPER_HOME/logs/skipper.log, never to the terminal, with secrets
// redacted by path and by value (the value list is the program's one SecretList).
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Logger } from '../shared/index.js';
import { SecretList } from './secrets.js';

export interface FileLogger {
  logger: Logger;
  path: string;
  flush(): void;
  /** Writes what is still queued, closes the file and resolves once it is closed (nothing logged after counts). */
  close(): Promise<void>;
}

const REDACT_PATHS = [
  'password',
  '*.password',
  'apiKey',
  '*.apiKey',
  'headers.authorization',
  '*.headers.authorization',
  'args.password',
];

export function createFileLogger(options: { home: string; level?: string; secrets?: SecretList }): FileLogger {
  const directory = join(options.home, 'logs');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const path = join(directory, 'skipper.log');
  // The log may mention usernames and URLs: readable by its owner only. Opening the file ourselves makes the
  // destination ready at once, so an early exit can always flush it.
  const fd = openSync(path, 'a', 0o600);
  // Written synchronously: a write the disk refuses (full, gone) then fails at once and loses that line, never the
  // run. With asynchronous writes a line still queued made sonic-boom's flushSync at exit retry ENOSPC forever (a
  // full-disk run hung for as long as the disk stayed full, issue 30). Once a write failed the file is given up; the
  // listener also keeps the 'error' from being thrown out of whatever was logging.
  const destination = pino.destination({ fd, sync: true });
  let failed = false;
  destination.on('error', () => {
    failed = true;
  });
  destination.on('write', () => {
    failed = false;
  });
  const secrets = options.secrets ?? new SecretList();
  const base = pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: {
        streamWrite: (line: string): string => secrets.redact(line),
      },
    },
    destination,
  );
  return {
    logger: base as unknown as Logger,
    path,
    flush: (): void => {
      if (failed) return;
      try {
        destination.flushSync();
      } catch {
        // flushSync throws if the stream is not ready yet; nothing to flush then
      }
    },
    // end() writes what is left and closes the file.
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (failed) {
          giveUp(fd);
          resolve();
          return;
        }
        destination.once('close', () => resolve());
        destination.once('error', reject);
        destination.end();
      }),
  };
}

/** Closes a log file whose writes failed; what it still held is lost with the space it needed. */
function giveUp(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
