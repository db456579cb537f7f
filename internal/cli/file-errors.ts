// File-system errors said plainly: the one table of reasons, for a path the person gave (--home, -o, --out…).
import { openSync, statSync } from 'node:fs';
import { FatalError, UsageError } from '../shared/index.js';

export const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'a file is in the way of a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large',
  EIO: 'an input/output error',
};

/** The plain reason for a file-system error, or undefined when it is not one. */
export function fileErrorReason(error: unknown): string | undefined {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' ? FILE_ERRORS[code] : undefined;
}

/**
 * Opens an output file (0600: exports are private until shared). An existing regular file is refused unless `force`
 * (exit 2); devices and pipes (/dev/stdout, a FIFO) are written as they are. A path that cannot be opened throws its
 * file-system error: like every path the person gave, it is reported as a usage problem (exit 2).
 */
export function openOutputFile(path: string, force: boolean): number {
  if (!force) {
    try {
      return openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      if (isRegularFile(path))
        throw new UsageError(`${path} already exists: add --force to overwrite it, or choose another file with -o.`);
    }
  }
  return openSync(path, 'w', 0o600);
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A write to an opened output file that failed (a full disk…), as one line and exit 1; others are returned as they are. */
export function outputFileError(error: unknown, path: string): unknown {
  const reason = fileErrorReason(error);
  if (reason === undefined) return error;
  return new FatalError('write_failed', `cannot write ${path}: ${reason}.`, { cause: error });
}
