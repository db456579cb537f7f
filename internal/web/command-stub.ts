// What the root help shows of `skipper web`, light on purpose: cmd/web.ts lists it without loading the bridge, and
// the command itself (command.ts) takes its description from here, so it is said once.
export const WEB = {
  name: 'web',
  description: 'the bridge on a web page: live galaxy map, a card per captain, the live stream, replay on the map',
} as const;
