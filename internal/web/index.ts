// internal/web: the bridge on a web page (`skipper web`): an HTTP server over the store, live updates by server-sent
// events, and the page's assets served from memory. Reads the store and adds fleet orders; never drives a session.
export { registerWebCommand, runWeb, type WebDeps, type WebFlags } from './command.js';
export {
  startWebServer,
  isLoopbackHost,
  newToken,
  TOKEN_HEADER,
  type WebServer,
  type WebServerOptions,
} from './server.js';
export { Bridge, trailOf, actionLine, type CaptainCard, type BridgeChange, type StreamItem } from './bridge.js';
export { Galaxy, type GalaxySystem } from './galaxy.js';
export { EventHub, DEFAULT_POLL_MS } from './events.js';
