// Where the database lives: $SKIPPER_HOME/skipper.db, else the XDG data dir ($XDG_DATA_HOME/skipper, by default
// ~/.local/share/skipper). Takes the environment as a parameter (nothing reads process.env here).
import path from 'node:path';

export const databaseFileName = 'skipper.db';

export function resolveDatabasePath(options: { env: Record<string, string | undefined>; homeDir: string }): string {
  const { env, homeDir } = options;
  if (env.SKIPPER_HOME) return path.join(env.SKIPPER_HOME, databaseFileName);
  // The XDG spec says relative values are invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  const dataHome = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.local', 'share');
  return path.join(dataHome, 'skipper', databaseFileName);
}
