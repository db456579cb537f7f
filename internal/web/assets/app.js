// The bridge page: plain DOM, one SVG map, one canvas plot, no framework (see the README's "The bridge on a web
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
    systems.append(group);
  }
  for (const card of state.captains.values()) renderShip(card);
  if (!state.userMoved) fitView();
  else rescale();
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
  // Placed by the queued frame (spreadShips), every ship at once: measuring the map here, between card renders,
  // made the browser lay the page out once per captain.
  ship.firstChild.textContent = `${card.name} · ${placeText(card.snapshot)}`;
  const points = card.trail.map((step) => position(step.system_id, step.poi_id)).filter(Boolean);
  trail.setAttribute('points', points.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' '));
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
    drag = { x: event.clientX, y: event.clientY, view: { ...state.view } };
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
  map.addEventListener('pointerup', () => (drag = null));
  map.addEventListener('dblclick', () => {
    state.userMoved = false;
    fitView();
  });
  window.addEventListener('resize', () => (state.userMoved ? rescale() : fitView()));
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

async function startReplay(sessionId) {
  $('replay-layer').replaceChildren();
  state.replay = null;
  const slider = $('replay-slider');
  slider.disabled = true;
  if (!sessionId) return;
  const snapshots = [];
  for (let offset = 0; ;) {
    const page = await getJson(`/api/sessions/${encodeURIComponent(sessionId)}/snapshots?offset=${offset}`);
    snapshots.push(...page.snapshots);
    offset += page.snapshots.length;
    if (page.snapshots.length === 0 || offset >= page.total) break;
  }
  state.replay = { session_id: sessionId, snapshots };
  slider.max = String(Math.max(0, snapshots.length - 1));
  slider.value = '0';
  slider.disabled = snapshots.length === 0;
  // A snapshot taken in transit names no system: the ship is drawn where it was last seen.
  let last = null;
  state.replay.points = snapshots.map((snapshot) => (last = position(snapshot.system_id, snapshot.poi_id) ?? last));
  const route = state.replay.points.filter(Boolean);
  $('replay-layer').append(
    svg('polyline', {
      class: 'replay-route',
      points: route.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' '),
    }),
    svg('circle', { class: 'replay-ship', r: 8, cx: -100, cy: -100, 'data-session': sessionId }),
  );
  await loadCounterfactuals(sessionId);
  renderReplayFrame();
}

// A counterfactual run stores decisions, not a second voyage: it is shown beside the original as the turns where it
// would have chosen otherwise, marked on the plot and listed at the slider's turn.
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

function renderCounterfactual(turn) {
  const view = counterfactual();
  if (!view) return;
  const { totals } = view;
  $('cf-summary').textContent =
    `${totals.decisions} decisions: ${totals.same} same, ${totals.different} different, ${totals.invalid} invalid, ${totals.failed} failed`;
  const here = view.divergences.filter((divergence) => divergence.turn === turn);
  const items = here.map((divergence) => {
    const item = el('li', { 'data-turn': String(divergence.turn) });
    item.append(
      el('span', { class: 'verdict' }, `round ${divergence.round} · ${divergence.verdict}`),
      el('div', { class: 'original' }, `original: ${divergence.original.join(', ')}`),
      el('div', { class: 'proposed' }, `${view.run.model}: ${divergence.proposed.join(', ')}`),
    );
    if (divergence.problems.length) item.append(el('div', { class: 'problems' }, divergence.problems.join('; ')));
    return item;
  });
  if (items.length === 0) items.push(el('li', { class: 'agrees' }, `turn ${turn}: no divergence`));
  $('cf-list').replaceChildren(...items);
}

function renderReplayFrame() {
  const replay = state.replay;
  if (!replay) return;
  const index = Number($('replay-slider').value);
  const snapshot = replay.snapshots[index];
  const dot = document.querySelector('#replay-layer .replay-ship');
  const card = state.captains.get(replay.session_id);
  const at = replay.points?.[index] ?? null;
  if (dot && at) {
    dot.setAttribute('cx', at.x.toFixed(1));
    dot.setAttribute('cy', at.y.toFixed(1));
  }
  if (card && snapshot) {
    fillCard(
      $('replay-card'),
      { ...card, name: `${card.name} · turn ${snapshot.turn} · ${new Date(snapshot.created_at).toLocaleTimeString()}` },
      snapshot,
    );
    $('replay-card').dataset.turn = String(snapshot.turn);
    renderCounterfactual(snapshot.turn);
  }
  drawPlot(index);
}

function drawPlot(marker) {
  const canvas = $('plot');
  const context = canvas.getContext('2d');
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth * ratio;
  const height = canvas.clientHeight * ratio;
  if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
  context.clearRect(0, 0, width, height);
  const snapshots = state.replay?.snapshots ?? [];
  if (snapshots.length < 2) return;
  const series = [
    ['#5cc8ff', snapshots.map((snapshot) => snapshot.credits)],
    ['#7be08a', snapshots.map((snapshot) => snapshot.net_worth)],
  ];
  for (const [stroke, values] of series) {
    const max = Math.max(...values, 1e-9);
    const min = Math.min(...values, 0);
    context.strokeStyle = stroke;
    context.lineWidth = 2 * ratio;
    context.beginPath();
    values.forEach((value, index) => {
      const x = (index / (values.length - 1)) * (width - 8 * ratio) + 4 * ratio;
      const y = height - 4 * ratio - ((value - min) / (max - min || 1)) * (height - 8 * ratio);
      if (index === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    });
    context.stroke();
  }
  const diverged = new Set((counterfactual()?.divergences ?? []).map((divergence) => divergence.turn));
  context.fillStyle = '#ffb347';
  snapshots.forEach((snapshot, index) => {
    if (!diverged.has(snapshot.turn)) return;
    const x = (index / (snapshots.length - 1)) * (width - 8 * ratio) + 4 * ratio;
    context.fillRect(x - ratio / 2, height - 10 * ratio, ratio, 10 * ratio);
  });
  if (marker !== undefined) {
    const x = (marker / (snapshots.length - 1)) * (width - 8 * ratio) + 4 * ratio;
    context.fillStyle = '#ff5ca8';
    context.fillRect(x - ratio, 0, 2 * ratio, height);
  }
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
  $('cost-legend').replaceChildren(...items);
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

function drawCost() {
  const plot = state.cost;
  if (!plot) return;
  costLegend(plot);
  const canvas = $('cost-plot');
  const context = canvas.getContext('2d');
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth * ratio;
  const height = canvas.clientHeight * ratio;
  if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
  context.clearRect(0, 0, width, height);
  // One scale for every line (unlike the replay plot): captains' costs are compared, and the fleet sum tops them.
  const max = Math.max(1e-6, plot.fleet.at(-1)?.[1] ?? 0);
  const span = Math.max(1, plot.to - plot.from);
  const at = ([time, usd]) => [
    4 * ratio + ((time - plot.from) / span) * (width - 8 * ratio),
    height - 4 * ratio - (usd / max) * (height - 8 * ratio),
  ];
  const line = (points, stroke, dash) => {
    context.strokeStyle = stroke;
    context.lineWidth = 2 * ratio;
    context.setLineDash(dash);
    context.beginPath();
    points.forEach((point, index) => (index === 0 ? context.moveTo(...at(point)) : context.lineTo(...at(point))));
    context.stroke();
  };
  for (const captain of plot.captains) line(captain.points, colour(captain.session_id), []);
  line(plot.fleet, '#ffffff', [6 * ratio, 4 * ratio]);
  canvas.dataset.captains = String(plot.captains.length);
  canvas.dataset.maxUsd = String(max);
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
  let index = 0;
  state.replay.snapshots.forEach((snapshot, at) => {
    if (snapshot.turn <= turn) index = at;
  });
  $('replay-slider').value = String(index);
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
  source.addEventListener('captain', (event) => upsertCaptain(JSON.parse(event.data).card));
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
  const first = await getJson('/api/state');
  if (first.orders) state.orders = first.orders;
  state.galaxy = first.galaxy;
  state.byId = new Map(first.galaxy.systems.map((system) => [system.id, system]));
  for (const card of first.captains) upsertCaptain(card);
  wireAlerts(first.alerts ?? []);
  renderGalaxy();
  sortCards();
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
