// Read commands open the store read-only: nothing is written, migrated or chmodded, and a store on a read-only file
// system (where SQLite cannot create the WAL index it reads through) still opens.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

async function makeStore(file: string): Promise<void> {
  const store = await openStore({ path: file });
  const session = await store.createSession({ name: 'kept', game: 'embedded', model: 'm' });
  await store.append(session.id, { role: 'user', content: 'hello', turn: 1 });
  await store.close();
}

/** A read-only bind mount of `dir` (root only); undefined where this system does not allow one. */
function readOnlyMount(dir: string): { path: string; release: () => void } | undefined {
  const mountPoint = `${dir}-ro`;
  fs.mkdirSync(mountPoint);
  try {
    execFileSync('mount', ['--bind', '-o', 'ro', dir, mountPoint], { stdio: 'ignore' });
  } catch {
    fs.rmdirSync(mountPoint);
    return undefined;
  }
  return {
    path: mountPoint,
    release: () => {
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
      fs.rmdirSync(mountPoint);
    },
  };
}

describe('read-only open', () => {
  it('leaves a read-only file as it is: bytes, mode, mtime and ctime', async () => {
    const { file } = tempDbPath();
    await makeStore(file);
    fs.chmodSync(file, 0o400);
    const before = { bytes: fs.readFileSync(file), stat: fs.statSync(file) };
    const store = await openStore({ path: file, readonly: true });
    expect((await store.getSession('kept')).name).toBe('kept');
    await store.close();
    const after = fs.statSync(file);
    expect(fs.readFileSync(file).equals(before.bytes)).toBe(true);
    expect(after.mode & 0o777).toBe(0o400);
    expect(after.mtimeMs).toBe(before.stat.mtimeMs);
    expect(after.ctimeMs).toBe(before.stat.ctimeMs);
  });

  it('reads a WAL store on a read-only file system (bind mount; skipped where mounting is not allowed)', async (context) => {
    const { file } = tempDbPath();
    await makeStore(file);
    const mount = readOnlyMount(path.dirname(file));
    if (!mount) {
      context.skip();
      return;
    }
    try {
      const store = await openStore({ path: path.join(mount.path, 'skipper.db'), readonly: true });
      expect((await store.listSessions()).map((row) => row.session.name)).toEqual(['kept']);
      expect((await store.messages((await store.getSession('kept')).id)).map((message) => message.content)).toEqual([
        'hello',
      ]);
      await store.close();
    } finally {
      mount.release();
    }
  });
});
