// Before a call leaves: the secret guard on what the model wrote, then the arguments Skipper fills in by code
// (the stored password for login, the registration code for register, the session id wherever it is asked for).
import { AbortedError, type ToolResult, type ToolSpec } from '../shared/index.js';
import type { GameOp } from '../spacemolt/index.js';
import { fillRegistration, fillSessionId } from './filled-args.js';
import type { Keyring } from './keyring.js';
import { errorResult } from './result.js';

export type Prepared = { args: Record<string, unknown> } | { refused: ToolResult; secret: boolean };

export async function prepareCall(options: {
  op: GameOp | undefined;
  args: Record<string, unknown>;
  spec: ToolSpec | undefined;
  keyring: Keyring;
  registrationCode: string | undefined;
  needsRegistrationCode: boolean;
}): Promise<Prepared> {
  const { op, spec, keyring } = options;
  // Fields Skipper fills are not checked (the model only ever saw placeholders there); login may carry the
  // password in its password field only; everything else is checked.
  const { session_id: _session, ...checked } = options.args;
  if (op === 'login') delete checked.password;
  if (op === 'register') delete checked.registration_code;
  if (keyring.reveals(checked))
    return { refused: errorResult('refused', 'refused: would reveal a secret'), secret: true };
  let args = options.args;
  if (op === 'login') {
    const filled = await filledLogin(keyring, args);
    if ('refused' in filled) return filled;
    args = filled.args;
  }
  if (op === 'register') {
    const filled = fillRegistration(args, {
      spec,
      code: options.registrationCode,
      required: options.needsRegistrationCode,
    });
    if ('refused' in filled) return { refused: filled.refused, secret: false };
    args = filled.args;
  }
  if (op !== 'login' && op !== 'register')
    args = fillSessionId(args, spec, keyring.sessionId, { always: keyring.sessionIdAlways });
  return { args };
}

/** The login with its stored password filled in; refused (nothing sent) when the store cannot be read. */
async function filledLogin(keyring: Keyring, args: Record<string, unknown>): Promise<Prepared> {
  try {
    return { args: await keyring.fillLogin(args) };
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    return {
      refused: errorResult(
        'store_unavailable',
        'store_unavailable: the stored password could not be read (the store is unreachable); try the login again later',
      ),
      secret: false,
    };
  }
}
