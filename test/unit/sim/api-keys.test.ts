// minimolt's key desk as a table of answers: the key API's statuses and shapes (as SpaceMolt's clients read them),
// single-use tokens that expire, and the auth outage's 503 with Retry-After — on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { KeyDesk, TOKEN_TTL_MS } from '../../../internal/sim/index.js';
import { answerKeyApi, isAccountCall, isKeyApiPath } from '../../../internal/sim/api-keys.js';
import { addPlayer, newEngine } from './helpers.js';

function desk(): { desk: KeyDesk; clock: { now: number }; ids: string[] } {
  const engine = newEngine();
  const ids = [addPlayer(engine, 'Nova').id, addPlayer(engine, 'Orion', 'nebula').id];
  const clock = { now: 1_000_000 };
  return {
    desk: new KeyDesk({ engine, now: () => clock.now, apiKey: 'mmk_key', registrationCode: 'code' }),
    clock,
    ids,
  };
}

const bearer = 'Bearer mmk_key';

describe('the key API', () => {
  it('lists the owned players and the registration code for the right key', () => {
    const { desk: keys, ids } = desk();
    const answer = answerKeyApi(keys, { method: 'GET', path: '/api/registration-code', authorization: bearer });
    expect(answer).toEqual({
      status: 200,
      body: {
        registration_code: 'code',
        players: [
          { id: ids[0], username: 'Nova', empire: 'solarian', hidden: false },
          { id: ids[1], username: 'Orion', empire: 'nebula', hidden: false },
        ],
      },
    });
  });

  it('mints a token for an owned player with POST only, and says what is wrong otherwise', () => {
    const { desk: keys, ids } = desk();
    const path = `/api/player/${ids[0]}/ws-token`;
    const minted = answerKeyApi(keys, { method: 'POST', path, authorization: bearer });
    expect(minted.status).toBe(200);
    expect(minted.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{48}$/), expires_in: 300 });
    expect(answerKeyApi(keys, { method: 'GET', path, authorization: bearer })).toMatchObject({
      status: 405,
      headers: { allow: 'POST' },
    });
    expect(answerKeyApi(keys, { method: 'POST', path, authorization: 'Bearer mmk_other' }).status).toBe(401);
    expect(answerKeyApi(keys, { method: 'POST', path, authorization: undefined }).status).toBe(401);
    expect(keys.counters.refusedKeys).toBe(2);
    const unknown = answerKeyApi(keys, { method: 'POST', path: '/api/player/nobody/ws-token', authorization: bearer });
    expect(unknown.status).toBe(404);
  });

  it('redeems a token once, and never after it expired', () => {
    const { desk: keys, clock, ids } = desk();
    const first = keys.mint(ids[1] ?? '');
    expect(keys.redeem(first?.token ?? '').username).toBe('Orion');
    expect(() => keys.redeem(first?.token ?? '')).toThrow(/already used or expired/);
    const second = keys.mint(ids[1] ?? '');
    clock.now += TOKEN_TTL_MS;
    expect(() => keys.redeem(second?.token ?? '')).toThrow(expect.objectContaining({ code: 'invalid_token' }));
    expect(keys.counters).toMatchObject({ minted: 2, redeemed: 1 });
  });

  it('answers 503 with Retry-After while an outage lasts, whatever the key, then serves again', () => {
    const { desk: keys, clock } = desk();
    keys.startOutage(30);
    clock.now += 12_500;
    const down = answerKeyApi(keys, { method: 'GET', path: '/api/registration-code', authorization: bearer });
    expect(down).toEqual({
      status: 503,
      body: expect.objectContaining({ error: 'auth_unavailable', retry_after: 18 }),
      headers: { 'retry-after': '18' },
    });
    clock.now += 18_000;
    expect(keys.outageSeconds()).toBe(0);
    expect(answerKeyApi(keys, { method: 'GET', path: '/api/registration-code', authorization: bearer }).status).toBe(
      200,
    );
  });

  it('knows its paths and the account calls an outage also refuses', () => {
    expect(isKeyApiPath('/api/registration-code')).toBe(true);
    expect(isKeyApiPath('/api/player/player_1/ws-token')).toBe(true);
    expect(isKeyApiPath('/api/player/ws-token')).toBe(false);
    expect(isAccountCall({ method: 'tools/call', params: { name: 'spacemolt_auth', arguments: {} } })).toBe(true);
    expect(isAccountCall({ method: 'tools/call', params: { name: 'login_token' } })).toBe(true);
    expect(isAccountCall({ method: 'tools/call', params: { name: 'spacemolt' } })).toBe(false);
    expect(isAccountCall({ method: 'tools/list' })).toBe(false);
  });
});
