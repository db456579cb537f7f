// How to log in on this server: as the profile spells it (SpaceMolt's faces), else as the last successful login or
// register was spelled (a generic game: flat `login`, or the grouped tool register went through).
import type { GameProfile } from './profile.js';

export class LoginSpelling {
  private learned: { name: string; extra: Record<string, unknown> } = { name: 'login', extra: {} };

  call(profile: GameProfile, username: string, password: string): { name: string; args: Record<string, unknown> } {
    const call = profile.callFor('login', { username, password });
    if (call) return call;
    return { name: this.learned.name, args: { ...this.learned.extra, username, password } };
  }

  /** After a successful login or register through `name` with `args`. */
  learn(op: 'login' | 'register', name: string, args: Record<string, unknown>): void {
    if (op === 'register') {
      this.learned = name === 'register' ? { name: 'login', extra: {} } : { name, extra: { action: 'login' } };
      return;
    }
    // The credentials change per account, and a session id goes stale with its session.
    const { username: _username, password: _password, session_id: _session, ...extra } = args;
    this.learned = { name, extra };
  }
}
