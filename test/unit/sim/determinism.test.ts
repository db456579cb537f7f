// Same seed + same action sequence in turbo mode = same state hash (SIM-SPEC "Determinism"). Plays the v2 face and reads
// positions from structuredContent (`structured: true`).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, test } from 'vitest';
import { createMinimolt } from '../../../internal/sim/index.js';

interface Script {
  seed: number;
  extraMine?: boolean;
}

/** Plays a fixed script through MCP in turbo mode, with pirates and chatter on, and returns the state hash. */
async function play(script: Script): Promise<string> {
  const sim = await createMinimolt({
    seed: script.seed,
    systems: 40,
    tickMs: 0,
    hostileChat: 0.5,
    npcChatChance: 0.5,
    structured: true,
    registrationCode: 'det',
  });
  const client = new Client({ name: 'determinism', version: '1' });
  await client.connect(await sim.connect({ face: 'v2' }));
  const call = async (tool: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> =>
    (
      await client.callTool({
        name: tool === 'register' ? 'spacemolt_auth' : 'spacemolt',
        arguments: { action: tool, ...args },
      })
    ).structuredContent as Record<string, any>;
  await call('register', { username: 'Det', empire: 'outerrim', registration_code: 'det' });
  const system = await call('get_system');
  const pois = system.details.system.pois as Array<{ id: string; type: string }>;
  const belt =
    pois.find((p) => ['asteroid_belt', 'ice_field', 'gas_cloud'].includes(p.type)) ??
    pois.find((p) => p.type === 'gate');
  await call('travel', { id: belt?.id });
  for (let i = 0; i < (script.extraMine ? 6 : 5); i++) await call('mine');
  // Wander into lower-police space so the ambush stream is exercised.
  let here = system.details.system;
  for (let hop = 0; hop < 4; hop++) {
    const next = [...here.connections].sort((a: any, b: any) => a.police_level - b.police_level)[0];
    await call('jump', { id: next.system_id });
    here = (await call('get_system')).details.system;
    await call('mine');
  }
  const hash = sim.engine.stateHash();
  await client.close();
  await sim.close();
  return hash;
}

test('same seed and same actions give the same state hash; a different seed or action does not', async () => {
  const a = await play({ seed: 1234 });
  const b = await play({ seed: 1234 });
  expect(a).toBe(b);
  expect(await play({ seed: 1235 })).not.toBe(a);
  expect(await play({ seed: 1234, extraMine: true })).not.toBe(a);
});
