// The fault suite's reporter: after vitest's own report, one figure line per group (`faults: …`), the cause of each
// failed case, and a plain `N passed, N failed` line counting the groups. Groups and figures come from the cases'
// task meta (see harness.ts); a group passes when all of its cases passed.
import type { Reporter, TestModule } from 'vitest/node';

/** The tour's order, whatever order vitest ran the files in. */
const ORDER = [
  'kill -9',
  'lease takeover',
  'one account, two sessions',
  'two processes',
  '--home before a command',
  'disk full',
  'disk full, world file',
  'secrets in export',
  'odd JSON-RPC ids',
  'server restarts',
  'model faults',
  'hostile chat',
  'postgres stopped',
  'worker frozen',
  'postgres connections cut',
  'parked captain memory',
];

interface Group {
  cases: number;
  passed: number;
  line?: string;
  causes: string[];
}

export default class FaultReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const groups = new Map<string, Group>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const meta = test.meta();
        const name = meta.faultGroup;
        if (!name) continue;
        const group = groups.get(name) ?? { cases: 0, passed: 0, causes: [] };
        groups.set(name, group);
        const state = test.result().state;
        group.cases += 1;
        if (state === 'passed') group.passed += 1;
        if (meta.faultLine) group.line = meta.faultLine;
        if (state === 'failed') {
          const error = test.result().errors?.[0]?.message?.split('\n')[0];
          group.causes.push(`${test.name}: ${meta.faultCause ?? error ?? 'failed'}`);
        }
      }
    }
    const lines: string[] = [''];
    let passed = 0;
    const order = (name: string): number => (ORDER.indexOf(name) + ORDER.length + 1) % (ORDER.length + 1);
    for (const [name, group] of [...groups].sort(([a], [b]) => order(a) - order(b))) {
      const ok = group.passed === group.cases;
      if (ok) passed += 1;
      lines.push(`faults: ${group.line ?? `${name} survived ${group.passed}/${group.cases}`}${ok ? '' : '  [FAILED]'}`);
      for (const cause of group.causes) lines.push(`        ✗ ${cause}`);
    }
    lines.push(`${passed} passed, ${groups.size - passed} failed`, '');
    process.stdout.write(lines.join('\n'));
  }
}
