// Registrations per address per minute: a limit of its own (default 10) under SpaceMolt's combined 30 logins or
// registrations a minute, answered rate_limited as JSON text with retry_after; logins are not counted against it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, expect, test } from 'vitest';
import { createMinimolt, type Minimolt, type MinimoltOptions } from '../../../internal/sim/index.js';
import { codeOf, passwordOf, retryAfterOf, textOf, type Call } from './mcp.js';

const open: Array<{ sim: Minimolt; client: Client }> = [];
afterEach(async () => {
  for (const { sim, client } of open.splice(0)) {
    await client.close();
    await sim.close();
  }
});

async function setup(options: MinimoltOptions): Promise<Call> {
  const sim = await createMinimolt({ tickMs: 0, npcChatChance: 0, registrationCode: 'reg', ...options });
  const client = new Client({ name: 'reg', version: '1' });
  await client.connect(await sim.connect({ face: 'v1' }));
  open.push({ sim, client });
  return async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Awaited<ReturnType<Call>>;
}

const register = (call: Call, username: string): ReturnType<Call> =>
  call('register', { username, empire: 'solarian', registration_code: 'reg' });

test('10 registrations a minute per address by default, then rate_limited with retry_after; logins still work', async () => {
  let now = 2_000_000;
  const call = await setup({ now: () => now });
  let password = '';
  for (let i = 0; i < 10; i++) {
    const result = await register(call, `pilot_${i}`);
    expect(result.isError, textOf(result)).toBeFalsy();
    if (i === 0) password = passwordOf(result);
    now += 1_000;
  }
  const limited = await register(call, 'pilot_10');
  expect(codeOf(limited)).toBe('rate_limited');
  expect(JSON.parse(textOf(limited))).toEqual({
    code: 'rate_limited',
    message: expect.stringMatching(/registrations/),
    retry_after: 50,
  });
  expect(retryAfterOf(limited)).toBe(50);
  expect((await call('login', { username: 'pilot_0', password })).isError).toBeFalsy();
  now += 50_000;
  expect((await register(call, 'pilot_10')).isError).toBeFalsy();
});

test('registrationsPerMinutePerAddress sets it; the combined limit of 30 still counts registrations', async () => {
  const now = 3_000_000;
  const call = await setup({ now: () => now, rateLimits: { registrationsPerMinutePerAddress: 3 } });
  for (let i = 0; i < 3; i++) expect((await register(call, `few_${i}`)).isError).toBeFalsy();
  expect(codeOf(await register(call, 'few_3'))).toBe('rate_limited');

  const combined = await setup({ now: () => now, rateLimits: { registrationsPerMinutePerAddress: 100 } });
  for (let i = 0; i < 30; i++) expect((await register(combined, `many_${i}`)).isError).toBeFalsy();
  expect(codeOf(await register(combined, 'many_30'))).toBe('rate_limited');
});

test('1,000 registrations in a burst are impossible with the defaults', async () => {
  const call = await setup({});
  let accepted = 0;
  for (let i = 0; i < 1000 && accepted <= 10; i++) if (!(await register(call, `burst_${i}`)).isError) accepted++;
  expect(accepted).toBe(10);
});
