// The account flags, declared once: the play command takes all three, `skipper doctor` the two that log in (it never
// registers). Light: commander only, so `skipper --help` stays fast.
import type { Command } from 'commander';

/** How an existing player logs in: --username (with SKIPPER_GAME_PASSWORD or a stored password) or the API key. */
export function loginOptions(command: Command): Command {
  return command
    .option(
      '--username <name>',
      'play an existing account (password from SKIPPER_GAME_PASSWORD, or log in with SKIPPER_GAME_API_KEY)',
    )
    .option(
      '--api-key <key>',
      "the game's API key (SpaceMolt: from your account on spacemolt.com), to log in without a password: each login " +
        'mints a single-use token and redeems it (login_token); a secret like the password. Prefer SKIPPER_GAME_API_KEY ' +
        "(a flag shows in the process list). Not the model's key (--api-key-env)",
    );
}

/** Who plays on the game: an existing account (by password or API key), or a new one (registration code). */
export function accountOptions(command: Command): Command {
  return loginOptions(command).option(
    '--registration-code <code>',
    'SpaceMolt registration code (from your dashboard) for creating a new player; prefer SKIPPER_REGISTRATION_CODE',
  );
}
