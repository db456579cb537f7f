// Where the database lives: $SKIPPER_HOME/skipper.db, else the XDG data dir ($XDG_DATA_HOME/skipper, by default
// ~/.local/share/skipper). Takes the environment as a parameter (nothing reads process.env here).
import path from 'node:path';

export const databaseFileName = 'skipper.db';

export function resolveDatabasePath(options: { env: Record<string, string | undefined>; homeDir: string }): string {
  const { env, homeDir } = options;
  if (env.SKIPPER_HOME) return path.join(env.SKIPPER_HOME, databaseFileName);
  const dataHome = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(homeDir, '.local', 'share');
  return path.join(dataHome, 'skipper', databaseFileName);
}
