// Temp directories for store tests, removed after each test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp dir for this test; returns the path of a database file inside a not-yet-existing subdirectory. */
export function tempDbPath(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-store-'));
  made.push(dir);
  return { dir, file: path.join(dir, 'home', 'skipper.db') };
}

export function mode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}
