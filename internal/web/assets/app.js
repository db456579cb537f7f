// The bridge page: plain DOM, one SVG map, SVG plots with axes, no framework (see the README's "The bridge on a web
// page"). Everything the game or a model wrote is set with textContent or an SVG attribute value, never parsed as
// HTML: chat lines from other players are hostile input.
/* global document, window, location, history, fetch, EventSource, sessionStorage, requestAnimationFrame, URLSearchParams, CSS, performance, Notification */

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const state = {
  captains: new Map(),
  galaxy: { version: -1, systems: [] },
  byId: new Map(),
  stream: null,
  oldest: null,
  replay: null,
  cost: null,
  view: { x: 0, y: 0, w: 1000, h: 1000 },
  /** The user zoomed or panned: the map is no longer fitted to the galaxy when it grows. */
  userMoved: false,
  /** Whether this page may send orders (it holds the token) and, if not, why, as /api/state says. */
  orders: { allowed: false, why: 'orders need the token' },
  /** The trail window picked ('' for the latest places) and, once read, its trails by session id. */
  trailWindow: '',
  trails: null,
};

const token = (() => {
  const given = new URLSearchParams(location.search).get('token');
  if (given) {
    sessionStorage.setItem('skipper-token', given);
    history.replaceState(null, '', location.pathname + location.hash);
  }
  return given ?? sessionStorage.getItem('skipper-token');
})();

function el(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

async function getJson(path) {
  const response = await fetch(path, { headers: token ? { 'x-skipper-token': token } : {} });
  if (!response.ok)
    throw new Error(`${path}: ${response.status} ${(await response.json().catch(() => ({}))).error ?? ''}`);
  return response.json();
}

// One formatter for the page: toLocaleString builds a new one per call, which 200 cards' figures made slow.
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const number = (value) => (value === null || value === undefined ? '–' : grouped.format(Math.round(value)));
const money = (value) => `$${(value ?? 0).toFixed(value >= 1 ? 2 : 4)}`;

function colour(sessionId) {
  let hash = 0;
  for (const char of sessionId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 80% 62%)`;
}

// ---- map ----
// The map is a chart: markers and labels keep their size on screen at every zoom (labels 12 px), labels are placed
// where they overlap nothing already placed (captains first, then systems with a captain, stations, the best
// connected), shortened or left out when there is no room, and shown in full on hover and once zoomed in enough.

const LABEL_PX = 12;
const LABEL_FONT = `${LABEL_PX}px system-ui, sans-serif`;
const SYSTEM_PX = 5;
const SHIP_PX = 1;
const DANGER_POLICE = 50;

function position(systemId, poiId) {
  const system = systemId ? state.byId.get(systemId) : undefined;
  if (!system) return null;
  const poi = poiId ? system.pois[poiId] : undefined;
  if (poi) return { x: system.x + poi.x, y: system.y + poi.y };
  if (!poiId) return { x: system.x, y: system.y };
  let hash = 0;
  for (const char of poiId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const angle = ((hash % 3600) / 3600) * Math.PI * 2;
  return { x: system.x + Math.cos(angle) * 14, y: system.y + Math.sin(angle) * 14 };
}

/** The game's name for an id, else the id written as words: a person never reads `vexuth_major_ice_field`. */
function nameOf(id) {
  if (id === null || id === undefined) return null;
  const named = state.galaxy.names?.[id] ?? state.byId.get(id)?.name;
  if (named && named !== id) return named;
  return String(id)
    .split(/[_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

const isBelt = (poi) => /belt|ice|gas|asteroid|field|cloud/.test(poi.type ?? '');
const isDanger = (system) =>
  system.police_level !== null && system.police_level !== undefined && system.police_level < DANGER_POLICE;

function systemTitle(system) {
  const pois = Object.values(system.pois ?? {});
  const parts = [system.name];
  if (system.empire) parts.push(nameOf(system.empire));
  if (system.has_station) parts.push('station');
  const belts = pois.filter(isBelt).map((poi) => poi.name);
  if (belts.length) parts.push(`belts: ${belts.join(', ')}`);
  if (isDanger(system)) parts.push(`danger: police ${system.police_level}`);
  const here = [...state.captains.values()].filter((card) => card.snapshot?.system_id === system.id);
  if (here.length) parts.push(`here: ${here.map((card) => card.name).join(', ')}`);
  return parts.join(' · ');
}

function renderGalaxy() {
  const lanes = $('lanes');
  const systems = $('systems');
  lanes.replaceChildren();
  systems.replaceChildren();
  state.byId = new Map(state.galaxy.systems.map((system) => [system.id, system]));
  for (const system of state.galaxy.systems) {
    for (const other of system.connections) {
      const to = state.byId.get(other);
      if (!to || other < system.id) continue;
      lanes.append(svg('line', { class: 'lane', x1: system.x, y1: system.y, x2: to.x, y2: to.y }));
    }
    const group = svg('g', { class: 'system-mark', 'data-system': system.id });
    if (isDanger(system)) group.append(svg('circle', { class: 'danger', cx: system.x, cy: system.y, 'data-px': 10 }));
    if (Object.values(system.pois ?? {}).some(isBelt))
      group.append(svg('circle', { class: 'belt', cx: system.x, cy: system.y, 'data-px': 7.5 }));
    const dot = svg('circle', {
      class: system.has_station ? 'system station' : 'system',
      cx: system.x,
      cy: system.y,
      'data-px': SYSTEM_PX,
      'data-system': system.id,
    });
    const title = svg('title');
    title.textContent = systemTitle(system);
    dot.append(title);
    group.append(dot);
    group.addEventListener('pointerenter', () => showHover(system));
    group.addEventListener('pointerleave', hideHover);
    // A click is told apart from a drag by the map's pointer handlers; the keyboard opens it here.
    group.setAttribute('tabindex', '0');
    group.setAttribute('role', 'button');
    group.setAttribute('aria-label', `${system.name}: what the fleet knows of it`);
    group.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      openSystem(system.id).catch(showError);
    });
    systems.append(group);
  }
  for (const card of state.captains.values()) renderShip(card);
  if (!state.userMoved) fitView();
  else rescale();
  // The route is drawn on this layout: drawn again with it.
  if (state.replay) drawReplayRoute();
  if (state.replay) renderReplayFrame();
}

function renderShip(card) {
  const at = card.snapshot ? position(card.snapshot.system_id, card.snapshot.poi_id) : null;
  let ship = document.querySelector(`#ships [data-session="${CSS.escape(card.session_id)}"]`);
  let trail = document.querySelector(`#trails [data-session="${CSS.escape(card.session_id)}"]`);
  if (!at) {
    ship?.remove();
    trail?.remove();
    queueLabels();
    return;
  }
  if (!ship) {
    ship = svg('polygon', {
      class: 'ship',
      points: '0,-9 7,7 -7,7',
      fill: colour(card.session_id),
      'data-session': card.session_id,
    });
    ship.append(svg('title'));
    $('ships').append(ship);
    trail = svg('polyline', { class: 'trail', 'data-session': card.session_id, stroke: colour(card.session_id) });
    $('trails').append(trail);
  }
  ship.dataset.x = at.x.toFixed(1);
  ship.dataset.y = at.y.toFixed(1);
  ship.dataset.name = card.name;
  // A click on a captain's marker opens the system it is in (the marker often covers that system's dot).
  ship.dataset.system = card.snapshot.system_id;
  // Placed by the queued frame (spreadShips), every ship at once: measuring the map here, between card renders,
  // made the browser lay the page out once per captain.
  ship.firstChild.textContent = `${card.name} · ${placeText(card.snapshot)}`;
  // A chosen window's trail (loadTrails), else the card's latest places, kept live by the stream.
  const steps = state.trails ? (state.trails.get(card.session_id) ?? []) : card.trail;
  const points = steps.map((step) => position(step.system_id, step.poi_id)).filter(Boolean);
  trail.setAttribute('points', points.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' '));
  trail.dataset.points = String(points.length);
  queueLabels();
}

/** Screen pixels per map unit (the viewBox is fitted with "meet": the smaller ratio). */
function pixelsPerUnit() {
  const box = $('map').getBoundingClientRect();
  const { w, h } = state.view;
  return Math.max(1e-6, Math.min(box.width / w, box.height / h)) || 1;
}

function placeShip(ship, scale = SHIP_PX / pixelsPerUnit()) {
  const [ox, oy] = [Number(ship.dataset.ox ?? 0), Number(ship.dataset.oy ?? 0)];
  ship.setAttribute(
    'transform',
    `translate(${ship.dataset.x} ${ship.dataset.y}) scale(${scale.toFixed(4)}) translate(${ox.toFixed(1)} ${oy.toFixed(1)})`,
  );
}

/** Captains at the same spot are spread on a small ring (in screen pixels), so each marker can be seen. */
function spreadShips() {
  const scale = SHIP_PX / pixelsPerUnit();
  const groups = new Map();
  for (const ship of document.querySelectorAll('#ships .ship')) {
    const key = `${ship.dataset.x},${ship.dataset.y}`;
    groups.set(key, [...(groups.get(key) ?? []), ship]);
  }
  for (const ships of groups.values())
    ships
      .sort((a, b) => (a.dataset.name < b.dataset.name ? -1 : 1))
      .forEach((ship, index) => {
        const angle = (index / ships.length) * Math.PI * 2 - Math.PI / 2;
        const reach = ships.length > 1 ? 11 : 0;
        ship.dataset.ox = (Math.cos(angle) * reach).toFixed(1);
        ship.dataset.oy = (Math.sin(angle) * reach).toFixed(1);
        placeShip(ship, scale);
      });
}

/** Keeps markers their size on screen whatever the zoom. */
function rescale() {
  const unit = 1 / pixelsPerUnit();
  for (const circle of document.querySelectorAll('#map circle[data-px]'))
    circle.setAttribute('r', (Number(circle.dataset.px) * unit).toFixed(3));
  for (const ship of document.querySelectorAll('#ships .ship')) placeShip(ship, SHIP_PX * unit);
  queueLabels();
}

/** The view that shows every known system, centred, with room for labels. */
function fitView() {
  const systems = state.galaxy.systems;
  if (systems.length === 0) {
    state.view = { x: 0, y: 0, w: 1000, h: 1000 };
  } else {
    const xs = systems.map((system) => system.x);
    const ys = systems.map((system) => system.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const box = $('map').getBoundingClientRect();
    const w = Math.max(maxX - minX, 40);
    const h = Math.max(maxY - minY, 40);
    // Margins in screen pixels (a label's length beside the outermost dots), turned into map units at the fitted scale.
    const scale = Math.min((box.width - 160) / w, (box.height - 60) / h) || 1;
    const padX = 80 / scale;
    const padY = 30 / scale;
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    state.view = { x: cx - w / 2 - padX, y: cy - h / 2 - padY, w: w + 2 * padX, h: h + 2 * padY };
  }
  setView();
}

function setView() {
  const { x, y, w, h } = state.view;
  $('map').setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
  rescale();
}

let labelsQueued = false;
function queueLabels() {
  if (labelsQueued) return;
  labelsQueued = true;
  requestAnimationFrame(() => {
    labelsQueued = false;
    spreadShips();
    placeLabels();
  });
}

let measure = null;
const widths = new Map();
function textWidth(text) {
  let width = widths.get(text);
  if (width === undefined) {
    measure ??= document.createElement('canvas').getContext('2d');
    measure.font = LABEL_FONT;
    width = measure.measureText(text).width;
    widths.set(text, width);
  }
  return width;
}

/** "Vexuth Major Ice Field" -> "Vexuth M…": what fits when the full name does not. */
function shortName(name) {
  return name.length > 9 ? `${name.slice(0, 7).trimEnd()}…` : null;
}

function overlaps(box, boxes) {
  return boxes.some((other) => box.x1 < other.x2 && other.x1 < box.x2 && box.y1 < other.y2 && other.y1 < box.y2);
}

/** The things to label, most wanted first: captains, systems where captains are, stations, the best connected. */
function labelWanted() {
  const ships = [...document.querySelectorAll('#ships .ship')].map((ship) => ({
    kind: 'ship',
    id: ship.dataset.session,
    text: ship.dataset.name,
    x: Number(ship.dataset.x) + Number(ship.dataset.ox ?? 0) / pixelsPerUnit(),
    y: Number(ship.dataset.y) + Number(ship.dataset.oy ?? 0) / pixelsPerUnit(),
    gap: 11,
  }));
  const occupied = new Set([...state.captains.values()].map((card) => card.snapshot?.system_id));
  const rank = (system) =>
    (occupied.has(system.id) ? 1000 : 0) + (system.has_station ? 100 : 0) + system.connections.length;
  const systems = [...state.galaxy.systems]
    .sort((a, b) => rank(b) - rank(a) || (a.name < b.name ? -1 : 1))
    .map((system) => ({ kind: 'system', id: system.id, text: system.name, x: system.x, y: system.y, gap: 8 }));
  return [...ships, ...systems];
}

function placeLabels() {
  const layer = $('labels');
  const unit = pixelsPerUnit();
  const { x: viewX, y: viewY, w: viewW, h: viewH } = state.view;
  // Boxes in screen pixels from the view's corner; the dots of systems are obstacles too.
  const toScreen = (x, y) => [(x - viewX) * unit, (y - viewY) * unit];
  const [width, height] = [viewW * unit, viewH * unit];
  const taken = state.galaxy.systems.map((system) => {
    const [sx, sy] = toScreen(system.x, system.y);
    return { x1: sx - SYSTEM_PX, y1: sy - SYSTEM_PX, x2: sx + SYSTEM_PX, y2: sy + SYSTEM_PX };
  });
  // Ship markers (9 px from their point, spread when they share one) are obstacles too.
  for (const ship of document.querySelectorAll('#ships .ship')) {
    const [sx, sy] = toScreen(Number(ship.dataset.x), Number(ship.dataset.y));
    const [ox, oy] = [Number(ship.dataset.ox ?? 0), Number(ship.dataset.oy ?? 0)];
    taken.push({ x1: sx + ox - 9, y1: sy + oy - 9, x2: sx + ox + 9, y2: sy + oy + 9 });
  }
  const lineHeight = LABEL_PX * 1.3;
  const labels = [];
  for (const wanted of labelWanted()) {
    const [sx, sy] = toScreen(wanted.x, wanted.y);
    if (sx < -200 || sy < -40 || sx > width + 200 || sy > height + 40) continue;
    const texts = [wanted.text, shortName(wanted.text)].filter(Boolean);
    let placed = null;
    for (const text of texts) {
      const textW = textWidth(text) + 2;
      // Beside, above, below, then on the diagonals; a captain's name may also stand a little further off.
      const spots = [];
      for (const gap of wanted.kind === 'ship' ? [wanted.gap, wanted.gap + 12] : [wanted.gap]) {
        const diagonal = gap * 0.7;
        spots.push(
          { x1: sx + gap, y1: sy - lineHeight / 2, anchor: 'start' },
          { x1: sx - gap - textW, y1: sy - lineHeight / 2, anchor: 'end' },
          { x1: sx - textW / 2, y1: sy - gap - lineHeight, anchor: 'middle' },
          { x1: sx - textW / 2, y1: sy + gap, anchor: 'middle' },
          { x1: sx + diagonal, y1: sy - diagonal - lineHeight, anchor: 'start' },
          { x1: sx + diagonal, y1: sy + diagonal, anchor: 'start' },
          { x1: sx - diagonal - textW, y1: sy - diagonal - lineHeight, anchor: 'end' },
          { x1: sx - diagonal - textW, y1: sy + diagonal, anchor: 'end' },
        );
      }
      for (const spot of spots) {
        const box = { x1: spot.x1 - 1, y1: spot.y1 - 1, x2: spot.x1 + textW + 1, y2: spot.y1 + lineHeight + 1 };
        if (overlaps(box, taken)) continue;
        placed = { text, box, anchor: spot.anchor };
        break;
      }
      if (placed) break;
    }
    if (!placed) continue;
    taken.push(placed.box);
    const ax =
      placed.anchor === 'start'
        ? placed.box.x1 + 1
        : placed.anchor === 'end'
          ? placed.box.x2 - 1
          : (placed.box.x1 + placed.box.x2) / 2;
    // The baseline sits at about 0.8 of the line box: the glyphs fill the box, not more.
    const label = svg('text', {
      class: wanted.kind === 'ship' ? 'label ship-label' : 'label',
      x: (viewX + ax / unit).toFixed(2),
      y: (viewY + (placed.box.y1 + 1 + lineHeight * 0.78) / unit).toFixed(2),
      'font-size': (LABEL_PX / unit).toFixed(3),
      'text-anchor': placed.anchor,
      'data-for': wanted.id,
      'data-full': wanted.text,
    });
    label.textContent = placed.text;
    labels.push(label);
  }
  layer.replaceChildren(...labels);
  $('map').dataset.labels = String(labels.length);
}

function showHover(system) {
  const unit = pixelsPerUnit();
  const text = svg('text', {
    class: 'hover-label',
    x: (system.x + 10 / unit).toFixed(2),
    y: (system.y - 10 / unit).toFixed(2),
    'font-size': (LABEL_PX / unit).toFixed(3),
  });
  text.textContent = systemTitle(system);
  $('hover').replaceChildren(text);
}

function hideHover() {
  $('hover').replaceChildren();
}

function wireMapGestures() {
  const map = $('map');
  map.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const box = map.getBoundingClientRect();
      const factor = event.deltaY > 0 ? 1.15 : 1 / 1.15;
      // Where the pointer is in the viewBox ("meet" leaves bands on the longer side).
      const unit = pixelsPerUnit();
      const view = state.view;
      const px = view.x + (event.clientX - box.left - (box.width - view.w * unit) / 2) / unit;
      const py = view.y + (event.clientY - box.top - (box.height - view.h * unit) / 2) / unit;
      const w = Math.min(8000, Math.max(20, view.w * factor));
      const h = (w / view.w) * view.h;
      state.view = { x: px - ((px - view.x) * w) / view.w, y: py - ((py - view.y) * h) / view.h, w, h };
      state.userMoved = true;
      setView();
    },
    { passive: false },
  );
  let drag = null;
  map.addEventListener('pointerdown', (event) => {
    // The system under the pointer, read before the capture sends every later event to the map itself.
    const system = event.target.closest?.('[data-system]')?.dataset.system ?? null;
    drag = { x: event.clientX, y: event.clientY, view: { ...state.view }, system };
    map.setPointerCapture(event.pointerId);
  });
  map.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const scale = 1 / pixelsPerUnit();
    state.view = {
      ...drag.view,
      x: drag.view.x - (event.clientX - drag.x) * scale,
      y: drag.view.y - (event.clientY - drag.y) * scale,
    };
    state.userMoved = true;
    setView();
  });
  map.addEventListener('pointerup', (event) => {
    const moved = drag ? Math.hypot(event.clientX - drag.x, event.clientY - drag.y) : Infinity;
    if (drag?.system && moved < 5) openSystem(drag.system).catch(showError);
    drag = null;
  });
  map.addEventListener('dblclick', () => {
    state.userMoved = false;
    fitView();
  });
  window.addEventListener('resize', () => (state.userMoved ? rescale() : fitView()));
}

// ---- trail windows ----
// 5 minutes … 7 days, as Recon offers: each captain's places in the window, from its stored snapshots (GET
// /api/trails). The default is the card's latest 12 places, moved live by the stream; a window is read again at
// most every TRAIL_REFRESH_MS while captains move.

const TRAIL_REFRESH_MS = 3000;
let trailsQueued = false;

async function loadTrails() {
  const span = state.trailWindow;
  if (!span) state.trails = null;
  else {
    const body = await getJson(`/api/trails?window=${encodeURIComponent(span)}`);
    if (state.trailWindow !== span) return;
    state.trails = new Map(body.captains.map((captain) => [captain.session_id, captain.points]));
  }
  for (const card of state.captains.values()) renderShip(card);
  $('map').dataset.trailWindow = span || 'latest';
}

function queueTrails() {
  if (!state.trailWindow || trailsQueued) return;
  trailsQueued = true;
  window.setTimeout(() => {
    trailsQueued = false;
    loadTrails().catch(showError);
  }, TRAIL_REFRESH_MS);
}

function wireTrailWindow() {
  $('trail-window').addEventListener('change', (event) => {
    state.trailWindow = event.target.value;
    loadTrails().catch(showError);
  });
}

// ---- a system's panel ----
// What the fleet knows of one system (GET /api/systems/:id): names, never ids; a thing no answer said is written as
// unknown ("no market reading yet"), never as 0.

function ago(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

function unknown(text) {
  return el('p', { class: 'unknown' }, text);
}

function list(items) {
  const node = el('ul');
  for (const item of items) node.append(typeof item === 'string' ? el('li', {}, item) : item);
  return node;
}

function policeText(known) {
  if (known.police_level === null) return unknown('police level unknown');
  if (known.dangerous) return el('p', { class: 'bad' }, `police ${known.police_level}: pirates may attack`);
  return el('p', {}, `police ${known.police_level}`);
}

function poiItem(poi) {
  const kind = poi.type ? ` (${nameOf(poi.type).toLowerCase()})` : '';
  const item = el('li', { 'data-poi': poi.id }, `${poi.name}${kind}`);
  if (poi.deposits) {
    const left = poi.deposits.items.map((deposit) => `${deposit.name} ${number(deposit.remaining)} left`);
    item.append(el('br'), `${left.length ? left.join(', ') : 'depleted'}, surveyed ${ago(poi.deposits.age_ms)}`);
  } else if (isBelt(poi)) {
    item.append(el('br'), el('span', { class: 'unknown' }, 'deposits not surveyed yet'));
  }
  return item;
}

function marketBlock(market) {
  const block = el('div', { class: 'market', 'data-poi': market.poi_id });
  block.append(el('p', {}, `${market.station} · seen by ${market.seen_by}`));
  const bids = market.bids.map((bid) =>
    el('li', { class: 'bid' }, `${bid.name} ${number(bid.bid)} cr, seen ${ago(market.age_ms)}`),
  );
  if (bids.length) block.append(list(bids));
  else block.append(unknown('no bids read'));
  if (market.no_buyers.length) block.append(el('p', {}, `nobody buys: ${market.no_buyers.join(', ')}`));
  return block;
}

function fillSystem(known) {
  $('system-title').textContent = known.name;
  const body = [];
  body.push(el('h4', {}, 'Place'));
  if (known.empire) body.push(el('p', {}, `empire: ${known.empire}`));
  body.push(policeText(known));
  if (known.neighbours.length) body.push(el('p', {}, `lanes to ${known.neighbours.map((n) => n.name).join(', ')}`));
  body.push(el('h4', {}, 'Stations and belts'));
  body.push(known.pois.length ? list(known.pois.map(poiItem)) : unknown('not surveyed yet'));
  body.push(el('h4', {}, 'Markets'));
  if (known.markets.length) body.push(...known.markets.map(marketBlock));
  else body.push(unknown('no market reading yet'));
  body.push(el('h4', {}, 'Attacks seen'));
  body.push(
    known.attacks.length
      ? list(known.attacks.map((attack) => `${attack.what} (${attack.captain}, ${ago(attack.age_ms)})`))
      : unknown('none reported'),
  );
  body.push(el('h4', {}, 'Captains here now'));
  body.push(
    known.captains.length
      ? list(
          known.captains.map((captain) =>
            el(
              'li',
              { class: 'here', 'data-session': captain.session_id },
              `${captain.name}${captain.place ? ` at ${captain.place}${captain.docked ? ' (docked)' : ''}` : ''}`,
            ),
          ),
        )
      : unknown('no captain here now'),
  );
  $('system-body').replaceChildren(...body);
}

async function openSystem(systemId) {
  const panel = $('system-panel');
  panel.hidden = false;
  panel.dataset.system = systemId;
  panel.dataset.loaded = 'false';
  $('system-title').textContent = nameOf(systemId);
  $('system-body').replaceChildren(unknown('reading what the fleet knows…'));
  const known = await getJson(`/api/systems/${encodeURIComponent(systemId)}`);
  // Another system was opened meanwhile: its answer is the one shown.
  if (panel.dataset.system !== systemId || panel.hidden) return;
  fillSystem(known);
  panel.dataset.loaded = 'true';
}

function closeSystem() {
  const panel = $('system-panel');
  if (panel.hidden) return;
  const systemId = panel.dataset.system;
  panel.hidden = true;
  delete panel.dataset.system;
  document.querySelector(`#systems g[data-system="${CSS.escape(systemId ?? '')}"]`)?.focus();
}

function wireSystemPanel() {
  $('system-close').addEventListener('click', closeSystem);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeSystem();
  });
}

// ---- cards ----
// A card in words: the game's names, never its ids; the last action as the bridge worded it; the state the captain
// is really in; figures with their units. Nothing is cut: long values wrap.

function placeText(snapshot) {
  if (!snapshot) return '–';
  if (!snapshot.system_id) return 'in transit';
  const poi = snapshot.poi_id ? nameOf(snapshot.poi_id) : 'in space';
  return `${nameOf(snapshot.system_id)} / ${poi}${snapshot.docked ? ' (docked)' : ''}`;
}

/** What the captain is doing: its fleet row's state and why, or for a session alone, whether it still moves. */
function captainState(card) {
  const fleet = card.fleet;
  if (fleet) {
    if (fleet.state === 'playing' && (fleet.watchdog === 'nudged' || fleet.watchdog === 'replanned'))
      return { word: 'stalled', why: `the watchdog ${fleet.watchdog} it` };
    if (
      fleet.state === 'playing' &&
      fleet.fleet_state &&
      fleet.fleet_state !== 'running' &&
      fleet.fleet_state !== 'playing'
    )
      return { word: `fleet ${fleet.fleet_state}`, why: fleet.note };
    return { word: fleet.state, why: fleet.note };
  }
  if (card.status === 'ended') return { word: 'finished', why: null };
  const quiet = Date.now() - card.last_active_at > 120_000;
  return quiet
    ? { word: 'idle', why: `last active ${new Date(card.last_active_at).toLocaleString()}` }
    : { word: 'playing', why: null };
}

const credits = (value) => (value === null || value === undefined ? '–' : `${number(value)} cr`);
const ofMax = (value, max) => `${number(value)} / ${number(max)}`;

function cardFields(card, snapshot) {
  const fleet = card.fleet;
  const now = captainState(card);
  return [
    ['state', now.why ? `${now.word}: ${now.why}` : now.word, 'state'],
    ['credits', credits(snapshot?.credits), 'credits'],
    ['net worth', credits(snapshot?.net_worth), 'networth'],
    ['fuel', snapshot ? ofMax(snapshot.fuel, snapshot.max_fuel) : '–', 'fuel'],
    ['cargo', snapshot ? ofMax(snapshot.cargo_used, snapshot.cargo_capacity) : '–', 'cargo'],
    ['hull', snapshot ? ofMax(snapshot.hull, snapshot.max_hull) : '–', 'hull'],
    ['place', placeText(snapshot), 'place'],
    ['tick', snapshot ? number(snapshot.tick) : '–', 'tick'],
    ['goal', card.goal ?? '–', 'goal'],
    ['cost today', fleet ? money(fleet.cost_today) : `${money(card.cost_usd)} (session)`, 'cost'],
    [
      'tick use',
      // The session's own figure (what `skipper report` says), marked ~ when Skipper estimated it.
      card.figures?.tick_utilisation === null || card.figures?.tick_utilisation === undefined
        ? '–'
        : `${card.figures.tick_utilisation_source === 'estimated' ? '~' : ''}${Math.round(card.figures.tick_utilisation * 100)}%`,
      'utilisation',
    ],
    ['fleet', fleet ? `${fleet.fleet} · ${fleet.state}${fleet.note ? ` (${fleet.note})` : ''}` : '–', 'fleet'],
    // The budget ladder: model → fallback → planner → autopilot → parked; the watchdog's last step.
    ['ladder', fleet ? fleet.ladder : '–', 'ladder'],
    ['watchdog', fleet ? fleet.watchdog : '–', 'watchdog'],
    // Where the captain plays: its worker's host when a fleet spreads over machines (PostgreSQL), else the fleet's.
    ['host', fleet?.host ?? '–', 'host'],
    ['last action', card.last_action ?? '–', 'last-action'],
  ];
}

function fillCard(node, card, snapshot) {
  node.style.borderLeftColor = colour(card.session_id);
  const title = el('h3');
  const now = captainState(card);
  title.append(
    el('span', { class: 'name' }, card.name),
    el('span', { class: `badge state-${now.word.replace(/\W+/g, '-')}` }, now.word),
  );
  const model = el('p', { class: 'model' }, card.model);
  const list = el('dl');
  for (const [label, value, key] of cardFields(card, snapshot))
    list.append(el('dt', {}, label), el('dd', { class: key }, value));
  node.replaceChildren(title, model, list);
}

function renderCard(card) {
  let node = document.querySelector(`#cards [data-session="${CSS.escape(card.session_id)}"]`);
  if (!node) {
    node = el('article', { class: 'card', 'data-session': card.session_id });
    node.addEventListener('click', (event) => {
      if (event.target.closest('.controls')) return;
      watch(card.session_id);
    });
    $('cards').append(node);
  }
  fillCard(node, card, card.snapshot);
  node.classList.toggle('selected', state.stream === card.session_id);
  if (card.fleet) node.append(controls(card));
  applyFilter(node, card);
}

function controls(card) {
  const box = el('div', { class: 'controls' });
  const allowed = state.orders.allowed;
  const why = state.orders.why ?? '';
  for (const command of ['park', 'resume', 'stop']) {
    const button = el('button', { type: 'button', 'data-command': command }, command);
    if (allowed) button.addEventListener('click', () => sendOrder(card, command));
    else Object.assign(button, { disabled: true, title: why });
    box.append(button);
  }
  const input = el('input', {
    type: 'text',
    placeholder: allowed ? 'order for this captain' : 'orders need the token',
    maxlength: '2000',
    'aria-label': `order for ${card.name}`,
  });
  if (allowed)
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && input.value.trim())
        sendOrder(card, 'order', input.value.trim()).then(() => (input.value = ''));
    });
  else Object.assign(input, { disabled: true, title: why });
  box.append(input);
  if (!allowed) box.append(el('p', { class: 'why' }, why));
  return box;
}

async function sendOrder(card, command, text) {
  const response = await fetch('/api/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-skipper-token': token ?? '' },
    body: JSON.stringify({ fleet: card.fleet.fleet, captain: card.fleet.name, command, ...(text ? { text } : {}) }),
  });
  const body = await response.json().catch(() => ({}));
  $('live').textContent = response.ok
    ? `order ${command} sent to ${card.fleet.name}`
    : `order refused: ${body.error ?? response.status}`;
}

function applyFilter(node, card) {
  const words = $('filter').value.trim().toLowerCase();
  const haystack =
    `${card.name} ${card.model} ${placeText(card.snapshot)} ${card.snapshot?.system_id ?? ''} ${card.snapshot?.poi_id ?? ''} ${card.fleet?.fleet ?? ''}`.toLowerCase();
  node.hidden = words !== '' && !words.split(/\s+/).every((word) => haystack.includes(word));
}

function sortCards() {
  const key = $('sort').value;
  const value = (card) => {
    if (key === 'name') return card.name;
    if (key === 'credits') return -(card.snapshot?.credits ?? -Infinity);
    if (key === 'netWorth') return -(card.snapshot?.net_worth ?? -Infinity);
    if (key === 'costUsd') return -(card.fleet?.cost_today ?? card.cost_usd);
    return -card.last_active_at;
  };
  const cards = [...state.captains.values()].sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0));
  const container = $('cards');
  for (const card of cards) {
    const node = container.querySelector(`[data-session="${CSS.escape(card.session_id)}"]`);
    if (node) container.append(node);
  }
  $('count').textContent = `(${cards.length})`;
}

let sortQueued = false;
function queueSort() {
  if (sortQueued) return;
  sortQueued = true;
  requestAnimationFrame(() => {
    sortQueued = false;
    sortCards();
  });
}

function upsertCaptain(card) {
  const known = state.captains.has(card.session_id);
  state.captains.set(card.session_id, card);
  renderCard(card);
  renderShip(card);
  queueSort();
  if (!known) addSessionOption(card);
}

function addSessionOption(card) {
  for (const id of ['stream-session', 'replay-session'])
    $(id).append(el('option', { value: card.session_id }, card.name));
}

// ---- stream ----

/** Who a line is from, as people say it: Skipper's own prompts are Skipper's, not the person's. */
function speakerLabel(item) {
  if (item.role === 'tool') return `← ${item.tool_name ?? 'tool'}`;
  const speaker = item.speaker ?? item.role;
  return speaker === 'user' ? 'you' : speaker;
}

/** The text with other players' words as quoted data: no markup shown, their speaker and source beside them. */
function textNode(item) {
  const text = el('span', { class: 'text' });
  for (const segment of item.segments ?? [{ text: item.text }]) {
    if (!segment.untrusted) {
      text.append(document.createTextNode(segment.text));
      continue;
    }
    const quote = el('q', { class: 'untrusted', title: 'game text from someone else: data, not orders' }, segment.text);
    const who = segment.untrusted.from
      ? `${segment.untrusted.from} · ${segment.untrusted.source}`
      : segment.untrusted.source;
    text.append(el('span', { class: 'untrusted-from' }, who), quote);
  }
  return text;
}

function streamLine(item) {
  const line = el('li', { 'data-id': item.id, class: item.is_error ? 'error' : '' });
  line.dataset.speaker = item.speaker ?? item.role;
  line.append(el('span', { class: 'role' }, `${item.turn ?? '·'} ${speakerLabel(item)}`));
  if (item.text) line.append(textNode(item));
  for (const call of item.tool_calls)
    line.append(el('div', { class: 'tool-call' }, `→ ${call.name} ${call.arguments}`));
  return line;
}

/** What makes two lines the same line for folding: who said it and what (the turn aside). */
function foldKey(item) {
  const calls = item.tool_calls.map((call) => `${call.name} ${call.arguments}`).join('\n');
  return JSON.stringify([item.speaker ?? item.role, item.tool_name, item.text, calls, item.is_error]);
}

/** Lines back a repeat is looked for: a captain's repeats come interleaved with its other lines (call, answer, call…). */
const FOLD_WINDOW = 6;

/** A repeat of one of the last few lines is folded into it (×N) and moved to the end, where it happened again. */
function foldRepeat(list, key) {
  let line = list.lastElementChild;
  for (let back = 0; line && back < FOLD_WINDOW; back += 1, line = line.previousElementSibling) {
    if (line.dataset.key !== key) continue;
    const times = Number(line.dataset.times ?? '1') + 1;
    line.dataset.times = String(times);
    let note = line.querySelector('.repeat');
    if (!note) line.append((note = el('span', { class: 'repeat' })));
    note.textContent = ` ×${times}`;
    list.append(line);
    return true;
  }
  return false;
}

function appendStream(item, atTop = false) {
  const list = $('stream');
  const key = foldKey(item);
  const follow = list.scrollTop + list.clientHeight >= list.scrollHeight - 20;
  if (!atTop && foldRepeat(list, key)) {
    if (follow) list.scrollTop = list.scrollHeight;
    return;
  }
  const line = streamLine(item);
  line.dataset.key = key;
  if (atTop) list.prepend(line);
  else {
    list.append(line);
    while (list.childElementCount > 2000) list.firstElementChild.remove();
    if (follow) list.scrollTop = list.scrollHeight;
  }
}

async function loadOlder() {
  if (!state.stream || state.oldest === null) return;
  const query = state.oldest === undefined ? '' : `?before_turn=${state.oldest}`;
  const page = await getJson(`/api/sessions/${encodeURIComponent(state.stream)}/messages${query}`);
  if (state.oldest === undefined) page.messages.forEach((item) => appendStream(item));
  else [...page.messages].reverse().forEach((item) => appendStream(item, true));
  state.oldest = page.next_before_turn;
  $('older').disabled = state.oldest === null;
}

function watch(sessionId) {
  if (state.stream === sessionId) return;
  state.stream = sessionId;
  state.oldest = undefined;
  $('stream-session').value = sessionId;
  $('stream').replaceChildren();
  for (const node of document.querySelectorAll('#cards .card'))
    node.classList.toggle('selected', node.dataset.session === sessionId);
  connect();
  loadOlder().catch(showError);
}

// ---- replay and plots ----
// The replay is the server's steps (/api/sessions/:id/replay): one per stored state change, each that moment's state
// only. The slider has one position per step; the card shows the step's state and what the captain did to reach it;
// the map draws the route along the places the ship really passed through (POIs within a system, lanes between
// systems) and moves a marker along the step's leg.

const REPLAY_COLOURS = { credits: '#5cc8ff', net_worth: '#7be08a', cargo: '#c9a0ff', cf: '#ffb347' };

async function startReplay(sessionId) {
  $('replay-layer').replaceChildren();
  state.replay = null;
  const slider = $('replay-slider');
  slider.disabled = true;
  $('replay-steps').textContent = '';
  if (!sessionId) return;
  const steps = [];
  let body = null;
  for (let offset = 0; ;) {
    body = await getJson(`/api/sessions/${encodeURIComponent(sessionId)}/replay?offset=${offset}`);
    steps.push(...body.steps);
    offset += body.steps.length;
    if (body.steps.length === 0 || offset >= body.total) break;
  }
  state.replay = { session_id: sessionId, steps, snapshots: body?.snapshots ?? 0 };
  slider.max = String(Math.max(0, steps.length - 1));
  slider.value = '0';
  slider.disabled = steps.length === 0;
  drawReplayRoute();
  await loadCounterfactuals(sessionId);
  renderReplayFrame();
}

/** A place on the map: the page's own layout (the map's), else where the server placed it. */
function placeAt(place) {
  return position(place.system_id, place.poi_id) ?? (place.at ? { x: place.at.x, y: place.at.y } : null);
}

/** The systems between two along the known lanes (both ends excluded), shortest first; [] when not connected. */
function laneBetween(from, to) {
  if (from === to || !state.byId.has(from) || !state.byId.has(to)) return [];
  const before = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const id = queue.shift();
    if (id === to) break;
    for (const next of state.byId.get(id)?.connections ?? []) {
      if (before.has(next)) continue;
      before.set(next, id);
      queue.push(next);
    }
  }
  if (!before.has(to)) return [];
  const between = [];
  for (let id = before.get(to); id && id !== from; id = before.get(id)) between.unshift(id);
  return between;
}

/** The map points of one move between two places: within a system straight, between systems by their lane. */
function legPoints(from, to) {
  const end = placeAt(to);
  if (!end) return [];
  if (!from || !from.system_id || !to.system_id || from.system_id === to.system_id) return [end];
  const centre = (id) => {
    const system = state.byId.get(id);
    return system ? { x: system.x, y: system.y } : null;
  };
  return [
    centre(from.system_id),
    ...laneBetween(from.system_id, to.system_id).map(centre),
    centre(to.system_id),
    end,
  ].filter(Boolean);
}

/** Each step's leg: from where the step before left the ship, through its path, to its own place. */
function drawReplayRoute() {
  const replay = state.replay;
  if (!replay) return;
  let last = null;
  let lastPoint = null;
  replay.legs = replay.steps.map((step) => {
    const leg = lastPoint ? [lastPoint] : [];
    for (const place of [...step.path, step]) {
      if (!place.system_id) continue;
      leg.push(...legPoints(last, place));
      last = place;
    }
    // In transit (no system): drawn where it was last seen.
    const at = step.system_id ? placeAt(step) : lastPoint;
    if (at) lastPoint = at;
    step.map_at = at;
    return leg;
  });
  const route = replay.legs.flat();
  const text = (points) => points.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ');
  $('replay-layer').replaceChildren(
    svg('polyline', { class: 'replay-route', points: text(route) }),
    svg('polyline', { class: 'replay-leg', points: '' }),
    svg('circle', { class: 'replay-traveller', r: 4, cx: 0, cy: 0, visibility: 'hidden' }),
    svg('circle', { class: 'replay-ship', r: 8, cx: -100, cy: -100, 'data-session': replay.session_id }),
  );
}

// A counterfactual run stores decisions, not a second voyage: it is shown beside the original as the turns where it
// would have chosen otherwise, marked on the plot's timeline at the step holding that turn and listed at the slider's
// step.
async function loadCounterfactuals(sessionId) {
  const body = await getJson(`/api/sessions/${encodeURIComponent(sessionId)}/counterfactuals`);
  state.replay.runs = body.runs;
  const select = $('cf-run');
  select.replaceChildren(
    ...body.runs.map((view) => el('option', { value: String(view.run.id) }, `${view.run.name} · ${view.run.model}`)),
  );
  $('cf').hidden = body.runs.length === 0;
}

function counterfactual() {
  const runs = state.replay?.runs ?? [];
  return runs.find((view) => String(view.run.id) === $('cf-run').value) ?? runs[0] ?? null;
}

/** The step holding a turn: the first whose last turn is at or after it (a turn with no state of its own falls to
 * the state it led to). */
function stepOfTurn(turn) {
  const steps = state.replay?.steps ?? [];
  return steps.find((step) => step.to_turn >= turn) ?? steps.at(-1) ?? null;
}

/** The turns a step answers for: those after the step before it, up to its last. */
function stepTurns(index) {
  const steps = state.replay.steps;
  return { from: index === 0 ? -Infinity : steps[index - 1].to_turn + 1, to: steps[index].to_turn };
}

function renderCounterfactual(index) {
  const view = counterfactual();
  if (!view) return;
  const { totals } = view;
  $('cf-summary').textContent =
    `${totals.decisions} decisions: ${totals.same} same, ${totals.different} different, ${totals.invalid} invalid, ${totals.failed} failed`;
  const { from, to } = stepTurns(index);
  const here = view.divergences.filter((divergence) => divergence.turn >= from && divergence.turn <= to);
  const items = here.map((divergence) => {
    const item = el('li', { 'data-turn': String(divergence.turn) });
    item.append(
      el('span', { class: 'verdict' }, `turn ${divergence.turn} · round ${divergence.round} · ${divergence.verdict}`),
      el('div', { class: 'original' }, `original: ${divergence.original.join(', ')}`),
      el('div', { class: 'proposed' }, `${view.run.model}: ${divergence.proposed.join(', ')}`),
    );
    if (divergence.problems.length) item.append(el('div', { class: 'problems' }, divergence.problems.join('; ')));
    return item;
  });
  const step = state.replay.steps[index];
  if (items.length === 0)
    items.push(el('li', { class: 'agrees' }, `${spanText('turn', step.turn, step.to_turn)}: no divergence`));
  $('cf-list').replaceChildren(...items);
}

/** "turn 4" or "turns 4–6". */
function spanText(word, from, to) {
  return from === to ? `${word} ${number(from)}` : `${word}s ${number(from)}–${number(to)}`;
}

function stepPlace(step) {
  if (!step.system_id) return step.docked === null ? '–' : 'in transit';
  return `${step.system} / ${step.poi ?? 'in space'}${step.docked ? ' (docked)' : ''}`;
}

function replayFields(step) {
  const time = step.time === null ? '–' : new Date(step.time).toLocaleString();
  return [
    ['turn', spanText('turn', step.turn, step.to_turn), 'turn'],
    ['tick', spanText('tick', step.tick, step.to_tick), 'tick'],
    ['time', time, 'time'],
    ['place', stepPlace(step), 'place'],
    ['credits', credits(step.credits), 'credits'],
    ['net worth', credits(step.net_worth), 'networth'],
    ['cargo', step.cargo_used === null ? '–' : ofMax(step.cargo_used, step.cargo_capacity), 'cargo'],
    ['fuel', step.fuel === null ? '–' : ofMax(step.fuel, step.max_fuel), 'fuel'],
    ['hull', step.hull === null ? '–' : ofMax(step.hull, step.max_hull), 'hull'],
  ];
}

function fillReplayCard(step, index) {
  const node = $('replay-card');
  const card = state.captains.get(state.replay.session_id);
  node.style.borderLeftColor = colour(state.replay.session_id);
  const title = el('h3');
  title.append(
    el('span', { class: 'name' }, card?.name ?? ''),
    el('span', { class: 'badge' }, `step ${index + 1} of ${state.replay.steps.length}`),
  );
  const list = el('dl');
  for (const [label, value, key] of replayFields(step))
    list.append(el('dt', {}, label), el('dd', { class: key }, value));
  const actions = el('ol', { class: 'actions' });
  for (const action of step.actions) {
    const times = action.times > 1 ? ` ×${action.times}` : '';
    actions.append(
      el(
        'li',
        { class: action.ok ? 'ok' : 'failed', 'data-turn': String(action.turn) },
        `turn ${action.turn}: ${action.text}${times}`,
      ),
    );
  }
  if (step.actions_left_out > 0) actions.append(el('li', { class: 'more' }, `and ${step.actions_left_out} more`));
  if (step.actions.length === 0)
    actions.append(el('li', { class: 'none' }, step.index === 0 ? 'the start' : 'no action'));
  node.replaceChildren(title, list, el('h4', {}, 'what the captain did'), actions);
  Object.assign(node.dataset, {
    step: String(index),
    turn: String(step.turn),
    toTurn: String(step.to_turn),
    tick: String(step.tick),
    credits: String(step.credits),
    netWorth: String(step.net_worth),
  });
}

function renderReplayFrame() {
  const replay = state.replay;
  if (!replay || replay.steps.length === 0) return;
  if (!replay.legs) drawReplayRoute();
  const index = Math.min(Number($('replay-slider').value), replay.steps.length - 1);
  const step = replay.steps[index];
  const dot = document.querySelector('#replay-layer .replay-ship');
  if (dot && step.map_at) {
    dot.setAttribute('cx', step.map_at.x.toFixed(1));
    dot.setAttribute('cy', step.map_at.y.toFixed(1));
  }
  moveAlongLeg(replay.legs[index] ?? []);
  fillReplayCard(step, index);
  $('replay-steps').textContent =
    `${replay.steps.length} distinct states from ${replay.snapshots} stored snapshots · step ${index + 1}`;
  renderCounterfactual(index);
  drawPlot(index);
}

/** The leg to this step drawn, and a marker travelling it (SVG animation: no timer in the page). */
function moveAlongLeg(leg) {
  const line = document.querySelector('#replay-layer .replay-leg');
  const traveller = document.querySelector('#replay-layer .replay-traveller');
  if (!line || !traveller) return;
  line.setAttribute('points', leg.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' '));
  traveller.replaceChildren();
  if (leg.length < 2) return traveller.setAttribute('visibility', 'hidden');
  traveller.setAttribute('visibility', 'visible');
  const motion = svg('animateMotion', {
    dur: `${Math.min(2, 0.4 + leg.length * 0.15).toFixed(2)}s`,
    fill: 'freeze',
    begin: 'indefinite',
    path: `M ${leg.map((point) => `${point.x.toFixed(1)} ${point.y.toFixed(1)}`).join(' L ')}`,
  });
  traveller.append(motion);
  motion.beginElement?.();
}

// ---- plots: SVG charts with axes, units, a legend and a hover readout ----

/** About `count` round tick values spanning [min, max]. */
function niceTicks(min, max, count = 5) {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((value) => value >= raw) ?? raw;
  const ticks = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9; value += step)
    ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

const SECOND = 1000;
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map(
  (seconds) => seconds * SECOND,
);

/** About `count` clock times on whole seconds, minutes or hours spanning [from, to] (local time). */
function clockTicks(from, to, count = 5) {
  const raw = (to - from) / count;
  const step = CLOCK_STEPS.find((value) => value >= raw) ?? CLOCK_STEPS.at(-1);
  const offset = new Date(from).getTimezoneOffset() * 60 * SECOND;
  const ticks = [];
  for (let time = Math.ceil((from - offset) / step) * step + offset; time <= to; time += step) ticks.push(time);
  return ticks;
}

/** USD at the precision its axis steps need ($0.0025, $1.50, $120). */
function usdTick(value, step) {
  const decimals = Math.min(6, Math.max(2, (String(Number((step || 1).toPrecision(6))).split('.')[1] ?? '').length));
  return `$${value.toFixed(decimals)}`;
}

/** A value at x on a running series (the last point at or before x). */
function valueAt(points, x) {
  let value = null;
  for (const [px, py] of points) {
    if (px > x) break;
    value = py;
  }
  return value;
}

/**
 * Draws a chart into an <svg>: `x` {min, max, label, format}, `axes` {left, right?} each {min, max, label, format},
 * `series` [{key, name, colour, axis, points: [[x, y]…], dash?, step?}], `marks` [{x, title, turn}], `cursor` x,
 * `readout(x)` the hover text for the point nearest x (its x snapped to `snap(x)`).
 */
function drawChart(node, chart) {
  const width = Math.max(200, Math.round(node.getBoundingClientRect().width) || 560);
  const height = Math.max(120, Math.round(node.getBoundingClientRect().height) || 180);
  node.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const pad = { left: 80, right: chart.axes.right ? 60 : 34, top: 10, bottom: 34 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const spanX = chart.x.max - chart.x.min || 1;
  const sx = (x) => pad.left + ((x - chart.x.min) / spanX) * plotW;
  const sy = (axis, y) => pad.top + plotH - ((y - axis.min) / (axis.max - axis.min || 1)) * plotH;
  const parts = [];
  const text = (attributes, value) => {
    const node = svg('text', attributes);
    node.textContent = value;
    return node;
  };
  // Grid and tick values: x below, the left axis on the left, the right axis on the right.
  const xAxis = svg('g', { class: 'axis x-axis' });
  const xCount = Math.max(2, Math.floor(plotW / 110));
  const xTicks = chart.x.ticks ? chart.x.ticks(xCount) : niceTicks(chart.x.min, chart.x.max, xCount);
  for (const tick of xTicks) {
    const x = sx(tick);
    xAxis.append(
      svg('line', { class: 'grid', x1: x, x2: x, y1: pad.top, y2: pad.top + plotH }),
      text({ class: 'tick-label', x, y: pad.top + plotH + 13, 'text-anchor': 'middle' }, chart.x.format(tick)),
    );
  }
  xAxis.append(
    text({ class: 'axis-label', x: pad.left + plotW / 2, y: height - 4, 'text-anchor': 'middle' }, chart.x.label),
  );
  parts.push(xAxis);
  for (const side of ['left', 'right']) {
    const axis = chart.axes[side];
    if (!axis) continue;
    const group = svg('g', { class: `axis y-axis ${side}`, 'data-unit': axis.unit });
    const at = side === 'left' ? pad.left - 6 : pad.left + plotW + 6;
    for (const tick of niceTicks(axis.min, axis.max, Math.max(2, Math.floor(plotH / 30)))) {
      const y = sy(axis, tick);
      if (side === 'left')
        group.append(svg('line', { class: 'grid', x1: pad.left, x2: pad.left + plotW, y1: y, y2: y }));
      group.append(
        text(
          { class: 'tick-label', x: at, y: y + 4, 'text-anchor': side === 'left' ? 'end' : 'start' },
          axis.format(tick),
        ),
      );
    }
    const labelX = side === 'left' ? 12 : width - 8;
    group.append(
      text(
        {
          class: 'axis-label',
          x: labelX,
          y: pad.top + plotH / 2,
          'text-anchor': 'middle',
          transform: `rotate(-90 ${labelX} ${pad.top + plotH / 2})`,
        },
        axis.label,
      ),
    );
    parts.push(group);
  }
  parts.push(svg('rect', { class: 'frame', x: pad.left, y: pad.top, width: plotW, height: plotH }));
  for (const series of chart.series) {
    const axis = chart.axes[series.axis];
    const coords = [];
    series.points.forEach(([x, y], index) => {
      if (y === null || y === undefined) return;
      if (series.step && index > 0 && coords.length) coords.push([sx(x), coords.at(-1)[1]]);
      coords.push([sx(x), sy(axis, y)]);
    });
    parts.push(
      svg('polyline', {
        class: 'series',
        'data-series': series.key,
        points: coords.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '),
        stroke: series.colour,
        ...(series.dash ? { 'stroke-dasharray': series.dash } : {}),
      }),
    );
  }
  if (chart.cursor !== undefined && chart.cursor !== null)
    parts.push(
      svg('line', { class: 'cursor', x1: sx(chart.cursor), x2: sx(chart.cursor), y1: pad.top, y2: pad.top + plotH }),
    );
  // Over the cursor: a divergence at the slider's step stays seen.
  for (const mark of chart.marks ?? []) {
    const line = svg('line', {
      class: 'mark',
      x1: sx(mark.x),
      x2: sx(mark.x),
      y1: pad.top + plotH - 12,
      y2: pad.top + plotH,
      stroke: REPLAY_COLOURS.cf,
      'data-turn': String(mark.turn),
    });
    const title = svg('title');
    title.textContent = mark.title;
    line.append(title);
    parts.push(line);
  }
  const hover = svg('line', {
    class: 'hover-line',
    x1: 0,
    x2: 0,
    y1: pad.top,
    y2: pad.top + plotH,
    visibility: 'hidden',
  });
  parts.push(hover);
  node.replaceChildren(...parts);
  node.onpointermove = (event) => {
    const box = node.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * width;
    const x = chart.snap(chart.x.min + ((px - pad.left) / plotW) * spanX);
    if (x === null) return;
    hover.setAttribute('x1', sx(x).toFixed(1));
    hover.setAttribute('x2', sx(x).toFixed(1));
    hover.setAttribute('visibility', 'visible');
    const readout = node.parentElement.querySelector('.readout');
    readout.textContent = chart.readout(x);
    readout.dataset.x = String(x);
    readout.hidden = false;
    readout.style.left = `${Math.min(box.width - 10, Math.max(0, (sx(x) / width) * box.width + 8))}px`;
  };
  node.onpointerleave = () => {
    hover.setAttribute('visibility', 'hidden');
    node.parentElement.querySelector('.readout').hidden = true;
  };
}

const creditsTick = (value) =>
  Math.abs(value) >= 10_000 ? `${(value / 1000).toLocaleString('en-US')}k cr` : `${number(value)} cr`;

/** The replay plot: credits and net worth (cr, left axis) and cargo (units, its own right axis) by tick; the
 * counterfactual's divergences marked at the ticks of the steps holding their turns; the slider's step as a cursor. */
function drawPlot(marker) {
  const node = $('plot');
  const steps = state.replay?.steps ?? [];
  if (steps.length === 0) return node.replaceChildren();
  const last = steps.at(-1);
  const at = (read) => steps.map((step) => [step.tick, read(step)]);
  // Each state holds until the next: the last one to its last tick.
  const hold = (points, read) => [...points, [last.to_tick, read(last)]];
  const amounts = [...steps.map((step) => step.credits), ...steps.map((step) => step.net_worth)];
  const capacity = Math.max(1, ...steps.map((step) => step.cargo_capacity ?? 0));
  const diverged = new Map();
  for (const divergence of counterfactual()?.divergences ?? []) {
    const step = stepOfTurn(divergence.turn);
    if (step && !diverged.has(divergence.turn)) diverged.set(divergence.turn, step);
  }
  drawChart(node, {
    x: {
      min: steps[0].tick,
      max: Math.max(last.to_tick, steps[0].tick + 1),
      label: 'game tick',
      format: (tick) => number(tick),
    },
    axes: {
      left: {
        min: Math.min(0, ...amounts),
        max: Math.max(1, ...amounts),
        label: 'credits (cr)',
        unit: 'cr',
        format: creditsTick,
      },
      right: { min: 0, max: capacity, label: 'cargo (units)', unit: 'units', format: (value) => number(value) },
    },
    series: [
      {
        key: 'credits',
        name: 'credits',
        colour: REPLAY_COLOURS.credits,
        axis: 'left',
        step: true,
        points: hold(
          at((s) => s.credits),
          (s) => s.credits,
        ),
      },
      {
        key: 'net_worth',
        name: 'net worth',
        colour: REPLAY_COLOURS.net_worth,
        axis: 'left',
        step: true,
        points: hold(
          at((s) => s.net_worth),
          (s) => s.net_worth,
        ),
      },
      {
        key: 'cargo',
        name: 'cargo',
        colour: REPLAY_COLOURS.cargo,
        axis: 'right',
        step: true,
        dash: '4 3',
        points: hold(
          at((s) => s.cargo_used),
          (s) => s.cargo_used,
        ),
      },
    ],
    marks: [...diverged].map(([turn, step]) => ({
      x: step.tick,
      turn,
      title: `turn ${turn}: the counterfactual chose otherwise`,
    })),
    cursor: marker === undefined ? null : steps[marker]?.tick,
    snap: (x) => replayStepAt(x)?.tick ?? null,
    readout: (x) => {
      const step = replayStepAt(x);
      const cargo =
        step.cargo_used === null ? '–' : `${number(step.cargo_used)} / ${number(step.cargo_capacity)} units`;
      return `${spanText('tick', step.tick, step.to_tick)} (${spanText('turn', step.turn, step.to_turn)}) · credits ${credits(step.credits)} · net worth ${credits(step.net_worth)} · cargo ${cargo}`;
    },
  });
  node.dataset.steps = String(steps.length);
}

/** The step whose state held at tick x. */
function replayStepAt(x) {
  const steps = state.replay?.steps ?? [];
  let found = steps[0] ?? null;
  for (const step of steps) if (step.tick <= x) found = step;
  return found;
}

// ---- cost over time ----

async function loadCost() {
  state.cost = await getJson('/api/cost');
  drawCost();
}

function costLegend(plot) {
  const items = plot.captains.map((captain) => {
    const item = el('li', { 'data-session': captain.session_id });
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = colour(captain.session_id);
    item.append(
      swatch,
      el('span', { class: 'name' }, captain.name),
      ' ',
      el('span', { class: 'usd' }, money(captain.total_usd)),
      ' ',
      el('span', { class: 'economy' }, economyText(captain)),
    );
    return item;
  });
  const all = el('li', { class: 'fleet-sum' });
  all.append(el('span', { class: 'swatch dashed' }), el('span', { class: 'name' }, 'all captains'));
  $('cost-legend').replaceChildren(...items, all);
  const fleet = plot.fleet_economy;
  $('cost-total').textContent = `all: ${money(plot.fleet.at(-1)?.[1] ?? 0)}${fleet ? ` · ${economyText(fleet)}` : ''}`;
}

/** Beside a cost: its cached prompt tokens, credits gained per 1,000 tokens, USD per 1,000 credits ("—": undefined). */
function economyText(figures) {
  const ratio = (value, write) => (value === null || value === undefined ? '—' : write(value));
  return (
    `${figures.cached_prompt_tokens ?? 0} cached tok · ` +
    `${ratio(figures.credits_per_1k_tokens, (value) => value.toFixed(1))} cr/1k tok · ` +
    `${ratio(figures.usd_per_1k_credits, money)}/1k cr`
  );
}

/** A clock time on the cost plot's axis: seconds only when the span is short. */
function clockText(time, span) {
  const options =
    span < 10 * 60_000
      ? { hour: '2-digit', minute: '2-digit', second: '2-digit' }
      : { hour: '2-digit', minute: '2-digit' };
  return new Date(time).toLocaleTimeString('en-GB', options);
}

/** One scale for every line: captains' costs are compared, and the fleet sum tops them. */
function drawCost() {
  const plot = state.cost;
  if (!plot) return;
  costLegend(plot);
  const node = $('cost-plot');
  const span = Math.max(1000, plot.to - plot.from);
  // At least a cent high: a fleet that spent nothing reads $0.00 on a readable axis.
  const max = Math.max(0.01, plot.fleet.at(-1)?.[1] ?? 0);
  const usdStep = niceTicks(0, max)[1] ?? max;
  const times = [
    ...new Set([...plot.fleet, ...plot.captains.flatMap((captain) => captain.points)].map(([time]) => time)),
  ].sort((a, b) => a - b);
  drawChart(node, {
    x: {
      min: plot.from,
      max: plot.from + span,
      label: 'time (your clock)',
      format: (time) => clockText(time, span),
      ticks: (count) => clockTicks(plot.from, plot.from + span, count),
    },
    axes: { left: { min: 0, max, label: 'model cost (USD)', unit: '$', format: (usd) => usdTick(usd, usdStep) } },
    series: [
      ...plot.captains.map((captain) => ({
        key: captain.session_id,
        name: captain.name,
        colour: colour(captain.session_id),
        axis: 'left',
        step: true,
        points: captain.points,
      })),
      {
        key: 'fleet',
        name: 'all captains',
        colour: '#ffffff',
        axis: 'left',
        step: true,
        dash: '6 4',
        points: plot.fleet,
      },
    ],
    snap: (x) => {
      let best = null;
      for (const time of times) if (best === null || Math.abs(time - x) < Math.abs(best - x)) best = time;
      return best;
    },
    readout: (time) =>
      [
        clockText(time, 0),
        ...plot.captains.map((captain) => `${captain.name} ${money(valueAt(captain.points, time) ?? 0)}`),
        `all ${money(valueAt(plot.fleet, time) ?? 0)}`,
      ].join(' · '),
  });
  node.dataset.captains = String(plot.captains.length);
  node.dataset.maxUsd = String(max);
}

// ---- alerts ----

/** An alert in the list: when, who, which rule, what, and a link to that moment on this page. */
function showAlert(alert) {
  const list = $('alerts');
  if (list.querySelector(`[data-seq="${CSS.escape(`${alert.fleet}:${alert.seq}`)}"]`)) return;
  const hash = alertHash(alert.link);
  const item = el('li', { 'data-seq': `${alert.fleet}:${alert.seq}`, 'data-rule': alert.rule });
  item.append(
    el('time', { datetime: new Date(alert.at).toISOString() }, new Date(alert.at).toLocaleTimeString()),
    el('span', { class: 'rule' }, alert.rule.replace('_', ' ')),
    el('strong', {}, alert.captain ?? alert.fleet),
    document.createTextNode(` ${alert.text} `),
    el('a', { href: hash ?? '#' }, alert.turn === null ? 'go to captain' : `turn ${alert.turn}`),
  );
  list.prepend(item);
  while (list.childElementCount > 200) list.lastElementChild.remove();
  $('alerts-empty').hidden = true;
  $('alert-count').textContent = String(list.childElementCount);
}

/** The `#captain=…&turn=…` part of an alert's link (absolute or not): the moment on this page. */
function alertHash(link) {
  const at = link.indexOf('#');
  return at === -1 ? null : link.slice(at);
}

/** A new alert: listed, and a browser notification when the person allowed them. */
function announceAlert(alert) {
  showAlert(alert);
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  const note = new Notification(`${alert.captain ?? alert.fleet}: ${alert.rule.replace('_', ' ')}`, {
    body: alert.text,
    tag: `${alert.fleet}:${alert.seq}`,
  });
  note.addEventListener('click', () => {
    window.focus();
    const hash = alertHash(alert.link);
    if (hash) location.hash = hash;
  });
}

function wireAlerts(alerts) {
  for (const alert of alerts) showAlert(alert);
  const button = $('alerts-notify');
  if ('Notification' in window && Notification.permission === 'default') {
    button.hidden = false;
    button.addEventListener('click', () =>
      Notification.requestPermission().then(() => (button.hidden = Notification.permission !== 'default')),
    );
  }
  window.addEventListener('hashchange', () => goToMoment().catch(showError));
}

/** `#captain=NAME&turn=N`: that captain's stream, and its replay at that turn. */
async function goToMoment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const name = params.get('captain');
  if (!name) return;
  const card = [...state.captains.values()].find((captain) => captain.name === name);
  if (!card) return;
  watch(card.session_id);
  $('replay-session').value = card.session_id;
  await startReplay(card.session_id);
  const turn = Number(params.get('turn'));
  if (!state.replay || !Number.isFinite(turn) || params.get('turn') === null) return;
  $('replay-slider').value = String(stepOfTurn(turn)?.index ?? 0);
  renderReplayFrame();
}

// ---- fleet overview ----
// One row per captain and one for all (GET /api/overview): rates per hour of played time, cost per 1,000 credits, the
// game's query limit, IP health, refusals; sorted by the heading clicked (aria-sort says how), and a verdict on top.

const overview = { body: null, key: 'net_worth_per_hour', direction: 'descending' };

const signed = (value) => (value > 0 ? `+${number(value)}` : number(value).replace('-', '−'));
const known = (value, write) => (value === null || value === undefined ? '–' : write(value));

function playedText(ms) {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.round(ms / 1000)} s`;
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

function queriesText(row) {
  const rate = row.queries_per_min;
  if (rate === null) return '–';
  const limit = row.query_limit_per_min;
  const shown = rate < 10 ? rate.toFixed(1) : number(rate);
  return limit ? `${shown} of ${number(limit)}` : `${shown} (limit unknown)`;
}

/** A row's cells: [key, text]; the key names the figure the column sorts by. */
function overviewCells(row) {
  return [
    ['name', row.name],
    ['state', row.state],
    ['played_ms', known(row.played_ms, playedText)],
    ['net_worth_change', known(row.net_worth_change, (value) => `${signed(value)} cr`)],
    ['net_worth_per_hour', known(row.net_worth_per_hour, (value) => `${signed(value)} cr/h`)],
    ['credits_per_hour', known(row.credits_per_hour, (value) => `${signed(value)} cr/h`)],
    ['cost_usd', row.cost_usd === 0 ? '$0' : money(row.cost_usd)],
    ['usd_per_hour', known(row.usd_per_hour, (value) => `${value === 0 ? '$0' : money(value)}/h`)],
    ['tokens_per_1k_credits', known(row.tokens_per_1k_credits, (value) => `${number(value)} tok`)],
    ['usd_per_1k_credits', known(row.usd_per_1k_credits, money)],
    ['queries_per_min', queriesText(row)],
    ['ip_health', known(row.ip_health, (value) => `${number(value)}%`)],
    ['refusals', known(row.refusals, (value) => `${number(value)} (${number(row.ip_refusals ?? 0)} IP)`)],
  ];
}

function overviewRow(row, tag = 'td') {
  const tr = el('tr', row.session_id ? { 'data-session': row.session_id } : {});
  // data-value: the figure itself, as the API gave it ("" when unknown), beside the words shown.
  for (const [key, text] of overviewCells(row))
    tr.append(el(tag, { 'data-key': key, 'data-value': typeof row[key] === 'number' ? String(row[key]) : '' }, text));
  return tr;
}

/** Sorted by the chosen figure; unknown figures last whichever way. */
function sortedRows(rows) {
  const { key, direction } = overview;
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const [x, y] = [a[key], b[key]];
    if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;
    if (y === null || y === undefined) return -1;
    const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return order * sign || a.name.localeCompare(b.name);
  });
}

function renderOverview() {
  const body = overview.body;
  if (!body) return;
  const verdict = $('overview-verdict');
  verdict.textContent = body.verdict.text;
  verdict.dataset.word = body.verdict.word;
  $('overview').tBodies[0].replaceChildren(...sortedRows(body.captains).map((row) => overviewRow(row)));
  const fleet = { ...body.fleet, name: `all ${body.fleet.captains}`, state: '' };
  $('overview').tFoot.replaceChildren(overviewRow(fleet));
  for (const th of document.querySelectorAll('#overview th[data-key]'))
    th.setAttribute('aria-sort', th.dataset.key === overview.key ? overview.direction : 'none');
}

async function loadOverview() {
  overview.body = await getJson('/api/overview');
  renderOverview();
}

function wireOverview() {
  for (const th of document.querySelectorAll('#overview th[data-key]'))
    th.querySelector('button').addEventListener('click', () => {
      const same = overview.key === th.dataset.key;
      const first = th.dataset.kind === 'text' ? 'ascending' : 'descending';
      overview.direction = same ? (overview.direction === 'ascending' ? 'descending' : 'ascending') : first;
      overview.key = th.dataset.key;
      renderOverview();
    });
}

// ---- live ----

let source = null;
function connect() {
  source?.close();
  const query = state.stream ? `?session=${encodeURIComponent(state.stream)}` : '';
  source = new EventSource(`/api/events${query}`);
  source.addEventListener('open', () => Object.assign($('live'), { textContent: 'live', className: 'live on' }));
  source.addEventListener('error', () =>
    Object.assign($('live'), { textContent: 'reconnecting…', className: 'live off' }),
  );
  source.addEventListener('captain', (event) => {
    upsertCaptain(JSON.parse(event.data).card);
    queueTrails();
  });
  source.addEventListener('message', (event) => {
    const change = JSON.parse(event.data);
    if (change.session_id === state.stream) appendStream(change.message);
  });
  source.addEventListener('galaxy', () => loadGalaxy().catch(showError));
  source.addEventListener('alert', (event) => announceAlert(JSON.parse(event.data).alert));
}

async function loadGalaxy() {
  state.galaxy = await getJson('/api/galaxy');
  renderGalaxy();
  // Names learnt since: the cards' places say them.
  for (const card of state.captains.values()) renderCard(card);
}

function showError(error) {
  Object.assign($('live'), { textContent: String(error.message ?? error), className: 'live off' });
}

async function start() {
  wireMapGestures();
  wireSystemPanel();
  wireTrailWindow();
  $('filter').addEventListener('input', () =>
    state.captains.forEach((card) =>
      applyFilter(document.querySelector(`#cards [data-session="${CSS.escape(card.session_id)}"]`), card),
    ),
  );
  $('sort').addEventListener('change', sortCards);
  $('stream-session').addEventListener('change', (event) => watch(event.target.value));
  $('older').addEventListener('click', () => loadOlder().catch(showError));
  $('replay-session').addEventListener('change', (event) => startReplay(event.target.value).catch(showError));
  $('replay-slider').addEventListener('input', renderReplayFrame);
  $('cf-run').addEventListener('change', renderReplayFrame);
  // The plots are drawn at the page's size, in pixels: drawn again when it changes.
  window.addEventListener('resize', () => {
    drawCost();
    if (state.replay) drawPlot(Number($('replay-slider').value));
  });
  const first = await getJson('/api/state');
  if (first.orders) state.orders = first.orders;
  state.galaxy = first.galaxy;
  state.byId = new Map(first.galaxy.systems.map((system) => [system.id, system]));
  for (const card of first.captains) upsertCaptain(card);
  wireAlerts(first.alerts ?? []);
  renderGalaxy();
  sortCards();
  $('map').dataset.trailWindow = 'latest';
  document.body.dataset.ready = 'true';
  // The bench reads this: navigation start to the first captains and map drawn.
  performance.mark('skipper-first-data');
  loadCost().catch(showError);
  wireOverview();
  loadOverview().catch(showError);
  // The figures move with the captains' turns (read at most every 2 s per captain): a slow refresh is enough.
  window.setInterval(() => loadOverview().catch(showError), 5000);
  // Cost moves once per model round: a slow refresh is enough, and it reads the usage table, not the transcript.
  window.setInterval(() => loadCost().catch(showError), 5000);
  const firstCaptain = [...state.captains.values()].sort((a, b) => b.last_active_at - a.last_active_at)[0];
  if (location.hash.includes('captain=')) await goToMoment();
  else if (firstCaptain) watch(firstCaptain.session_id);
  if (!state.stream) connect();
}

start().catch(showError);
