// The Node flags Skipper's command runs with: the shebang of cmd/skipper.ts (so `skipper`, `npx skipper` and a linked
// install get them), `npm start`, and the processes the tests and benchmarks start to measure it.
// A young generation of 2 MB a half (V8's default on 64-bit is up to 16 MB) collects short-lived garbage sooner: the
// socket buffers a long game answer passes through, the chunks of a streamed reply. Measured on Node 20 (issue 48):
// a run with a 20 MB tool result peaked at 146–148 MB of RSS with the default and 120 MB with this; the same run with a
// 1 KB result 110–114 MB and 94–96 MB; CPU per game action (`npm run bench -- cpu`) 4.41–4.43 ms and 4.32–4.36 ms.
// The flag sizes the heap when the process starts, so it cannot be set from the code (v8.setFlagsFromString is too
// late: measured, no change). `node dist/cmd/skipper.js` without it works the same, with that much more memory.
export const CLI_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];
