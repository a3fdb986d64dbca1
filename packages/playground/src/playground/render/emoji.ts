/**
 * Slack's emoji shortcodes drawn by the page itself: small SVGs served in the page's own stylesheet (as
 * data URLs), so they show on a machine without an emoji font and nothing is fetched from elsewhere. Every
 * shortcode Vigil writes is here (a test greps the sources for them), with the common ones people expect;
 * an unknown shortcode stays as typed, as Slack shows it.
 */

const Y = '#f4c20d';
const R = '#dd2e44';
const G = '#3e9c35';
const B = '#1d6fd1';
const K = '#292f33';
const GR = '#99aab5';
const W = '#ffffff';

const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20">${body}</svg>`;
const box = (fill: string, inner: string) =>
  `<rect x="1" y="1" width="18" height="18" rx="4" fill="${fill}"/>${inner}`;
const disc = (fill: string, inner = '') => `<circle cx="10" cy="10" r="8.5" fill="${fill}"/>${inner}`;
const glyph = (text: string, fill: string, size = 13) =>
  `<text x="10" y="${10 + size * 0.36}" font-family="Arial,Helvetica,sans-serif" font-weight="bold" font-size="${size}" text-anchor="middle" fill="${fill}">${text}</text>`;

/** Name → SVG; aliases share a drawing. */
const DRAWINGS: Record<string, string> = {
  warning: svg(
    `<path d="M10 1.8 19 17.8H1z" fill="${Y}" stroke="#c9a000" stroke-width=".8" stroke-linejoin="round"/><rect x="9" y="6.6" width="2" height="6.2" rx="1" fill="${K}"/><circle cx="10" cy="15.1" r="1.15" fill="${K}"/>`,
  ),
  white_check_mark: svg(
    box(
      G,
      `<path d="m5 10.4 3.3 3.3L15.2 6.6" fill="none" stroke="${W}" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`,
    ),
  ),
  heavy_check_mark: svg(
    `<path d="m3.5 10.5 4.2 4.2L16.8 5" fill="none" stroke="${K}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`,
  ),
  x: svg(`<path d="m4 4 12 12M16 4 4 16" stroke="${R}" stroke-width="3.4" stroke-linecap="round"/>`),
  no_entry: svg(disc(R, `<rect x="4.5" y="8.4" width="11" height="3.2" rx="1" fill="${W}"/>`)),
  no_entry_sign: svg(
    `<circle cx="10" cy="10" r="7.6" fill="none" stroke="${R}" stroke-width="2.6"/><path d="m4.7 15.3 10.6-10.6" stroke="${R}" stroke-width="2.6"/>`,
  ),
  grey_question: svg(glyph('?', GR, 18)),
  question: svg(glyph('?', R, 18)),
  grey_exclamation: svg(glyph('!', GR, 18)),
  exclamation: svg(glyph('!', R, 18)),
  information_source: svg(box(B, glyph('i', W, 14))),
  crescent_moon: svg(
    `<path d="M12.5 2.2a8 8 0 1 0 5.3 12.3A6.6 6.6 0 0 1 12.5 2.2z" fill="${Y}" stroke="#c9a000" stroke-width=".6"/>`,
  ),
  hourglass: svg(
    `<path d="M5 2h10M5 18h10" stroke="${K}" stroke-width="1.6" stroke-linecap="round"/><path d="M6 2.8h8c0 4-4 5.2-4 7.2s4 3.2 4 7.2H6c0-4 4-5.2 4-7.2S6 6.8 6 2.8z" fill="#e8f1f8" stroke="${K}" stroke-width="1"/><path d="M7.3 16.4h5.4c-.4-1.8-2.7-2.6-2.7-3.6 0 1-2.3 1.8-2.7 3.6z" fill="#f4a335"/>`,
  ),
  hourglass_flowing_sand: svg(
    `<path d="M5 2h10M5 18h10" stroke="${K}" stroke-width="1.6" stroke-linecap="round"/><path d="M6 2.8h8c0 4-4 5.2-4 7.2s4 3.2 4 7.2H6c0-4 4-5.2 4-7.2S6 6.8 6 2.8z" fill="#e8f1f8" stroke="${K}" stroke-width="1"/><path d="M7.6 5.4h4.8c-.5 1.5-2.4 2.4-2.4 3.2 0-.8-1.9-1.7-2.4-3.2zM10 10v4M7.4 16.4h5.2c-.4-1.3-2.6-1.9-2.6-2.5 0 .6-2.2 1.2-2.6 2.5z" fill="#f4a335" stroke="#f4a335" stroke-width=".6"/>`,
  ),
  zzz: svg(
    `<text x="3" y="16" font-family="Arial,Helvetica,sans-serif" font-weight="bold" font-size="9" fill="${B}">z</text><text x="8" y="11" font-family="Arial,Helvetica,sans-serif" font-weight="bold" font-size="7" fill="${B}">z</text><text x="13" y="6.5" font-family="Arial,Helvetica,sans-serif" font-weight="bold" font-size="5.5" fill="${B}">z</text>`,
  ),
  office: svg(
    `<rect x="4" y="3" width="12" height="15" fill="#c8ccd0" stroke="${K}" stroke-width=".8"/><path d="M6.5 5.5h2v2h-2zM11.5 5.5h2v2h-2zM6.5 9.5h2v2h-2zM11.5 9.5h2v2h-2z" fill="${B}"/><rect x="8.5" y="13.5" width="3" height="4.5" fill="${K}"/>`,
  ),
  new: svg(box(B, glyph('NEW', W, 6.4))),
  free: svg(box(B, glyph('FREE', W, 5.4))),
  mag: svg(
    `<circle cx="8" cy="8" r="5.2" fill="#d6ecfa" stroke="${K}" stroke-width="2"/><path d="m12 12 5.4 5.4" stroke="#8a6d3b" stroke-width="3" stroke-linecap="round"/>`,
  ),
  key: svg(
    `<circle cx="6" cy="13.5" r="4" fill="none" stroke="#d4a017" stroke-width="2.6"/><path d="m8.8 10.7 8-8M13.8 5.7l2.2 2.2M15.6 3.9l1.8 1.8" stroke="#d4a017" stroke-width="2.6" stroke-linecap="round"/>`,
  ),
  lock: svg(
    `<path d="M6 9V6.5a4 4 0 0 1 8 0V9" fill="none" stroke="${GR}" stroke-width="2.2"/><rect x="3.5" y="9" width="13" height="9.5" rx="2" fill="#f4a335"/><circle cx="10" cy="13.5" r="1.5" fill="${K}"/>`,
  ),
  unlock: svg(
    `<path d="M6 9V6.5a4 4 0 0 1 7.6-1.8" fill="none" stroke="${GR}" stroke-width="2.2"/><rect x="3.5" y="9" width="13" height="9.5" rx="2" fill="#f4a335"/><circle cx="10" cy="13.5" r="1.5" fill="${K}"/>`,
  ),
  electric_plug: svg(
    `<path d="M6 2v4M11 2v4" stroke="${GR}" stroke-width="2" stroke-linecap="round"/><path d="M3.5 6h11v3.5a5.5 5.5 0 0 1-11 0z" fill="${K}"/><path d="M9 15v2.5c0 1 1 1.5 2 1.5h6" fill="none" stroke="${K}" stroke-width="2"/>`,
  ),
  double_vertical_bar: svg(
    box(
      B,
      `<rect x="6" y="5" width="2.6" height="10" rx=".8" fill="${W}"/><rect x="11.4" y="5" width="2.6" height="10" rx=".8" fill="${W}"/>`,
    ),
  ),
  arrow_forward: svg(box(B, `<path d="M7 5v10l8-5z" fill="${W}"/>`)),
  arrow_up: svg(box(B, `<path d="M10 4.5 15 10h-3.2v5.5H8.2V10H5z" fill="${W}"/>`)),
  arrow_down: svg(box(B, `<path d="M10 15.5 15 10h-3.2V4.5H8.2V10H5z" fill="${W}"/>`)),
  arrow_right: svg(box(B, `<path d="M15.5 10 10 15v-3.2H4.5V8.2H10V5z" fill="${W}"/>`)),
  arrows_counterclockwise: svg(
    box(
      B,
      `<path d="M14.4 8a4.8 4.8 0 1 0 .4 3.4" fill="none" stroke="${W}" stroke-width="2"/><path d="M15.6 4.4v4.4h-4.4z" fill="${W}"/>`,
    ),
  ),
  rotating_light: svg(
    `<path d="M4.5 15a5.5 5.5 0 0 1 11 0z" fill="${R}"/><rect x="3" y="15" width="14" height="3" rx="1" fill="${GR}"/><path d="M10 2v2.5M3.5 4.5l1.8 1.8M16.5 4.5l-1.8 1.8" stroke="${Y}" stroke-width="1.6" stroke-linecap="round"/>`,
  ),
  speech_balloon: svg(
    `<path d="M3 3.5h14a1.5 1.5 0 0 1 1.5 1.5v8a1.5 1.5 0 0 1-1.5 1.5H8l-4 3v-3H3A1.5 1.5 0 0 1 1.5 13V5A1.5 1.5 0 0 1 3 3.5z" fill="${W}" stroke="${GR}" stroke-width="1.2"/><path d="M5 7.5h10M5 10.5h7" stroke="${GR}" stroke-width="1.4" stroke-linecap="round"/>`,
  ),
  bell: svg(
    `<path d="M10 2.5a5 5 0 0 0-5 5v4.2L3.2 15h13.6L15 11.7V7.5a5 5 0 0 0-5-5z" fill="${Y}" stroke="#c9a000" stroke-width=".8"/><circle cx="10" cy="16.8" r="1.8" fill="#c9a000"/>`,
  ),
  calendar: svg(
    `<rect x="2" y="3.5" width="16" height="14.5" rx="2" fill="${W}" stroke="${GR}"/><rect x="2" y="3.5" width="16" height="4.5" rx="2" fill="${R}"/><path d="M5 11h2M9 11h2M13 11h2M5 14.5h2M9 14.5h2" stroke="${K}" stroke-width="1.6"/>`,
  ),
  bar_chart: svg(
    box('#e8f1f8', `<path d="M5.5 15.5V10M10 15.5V5M14.5 15.5V8" stroke="${B}" stroke-width="2.8"/>`),
  ),
  chart_with_upwards_trend: svg(
    box(
      W,
      `<rect x="1" y="1" width="18" height="18" rx="4" fill="none" stroke="${GR}"/><path d="m4 14 4-4 3 2.5L16 6" fill="none" stroke="${R}" stroke-width="2" stroke-linejoin="round"/>`,
    ),
  ),
  shield: svg(
    `<path d="M10 1.8 17 4.5V9c0 4.6-3 7.8-7 9.2C6 16.8 3 13.6 3 9V4.5z" fill="${B}"/><path d="M10 3.8 15.2 5.8V9c0 3.4-2.1 5.9-5.2 7.1z" fill="#5fa0e8"/>`,
  ),
  eyes: svg(
    `<ellipse cx="6.2" cy="10" rx="4" ry="5.5" fill="${W}" stroke="${K}"/><ellipse cx="13.8" cy="10" rx="4" ry="5.5" fill="${W}" stroke="${K}"/><circle cx="7.6" cy="10.6" r="1.8" fill="${K}"/><circle cx="15.2" cy="10.6" r="1.8" fill="${K}"/>`,
  ),
  wave: svg(
    `<path d="M6 17c-2-2-3.5-4.5-2.5-6.5l1.2-1 2 2.8-.5-7.5a1.2 1.2 0 0 1 2.4-.2l.5 5 .5-6.4a1.2 1.2 0 0 1 2.4.1l-.2 6.4 1.2-5.5a1.2 1.2 0 0 1 2.3.5l-1 6 1.5-3.5a1.1 1.1 0 0 1 2 .9L15 15c-1.5 3-6 4-9 2z" fill="${Y}"/>`,
  ),
  sparkles: svg(
    `<path d="M8 2 9.6 7.4 15 9 9.6 10.6 8 16 6.4 10.6 1 9l5.4-1.6zM15.5 12l.8 2.2 2.2.8-2.2.8-.8 2.2-.8-2.2-2.2-.8 2.2-.8z" fill="${Y}"/>`,
  ),
  tada: svg(
    `<path d="m2 18 4.5-12 7.5 7.5z" fill="${Y}"/><path d="M10 3.5 11 2M14.5 5.5 17 4M15 9.5l2.5.5M12 6.5c1-1.5 2.5-1 3-2" stroke="${R}" stroke-width="1.4" stroke-linecap="round"/><circle cx="16" cy="13" r="1" fill="${B}"/><circle cx="9" cy="1.8" r=".9" fill="${G}"/>`,
  ),
  fire: svg(
    `<path d="M10 1.5c1 3.5 5.5 5.5 5.5 10a5.5 5.5 0 0 1-11 0c0-2.5 1.5-3.5 2-5 .8 1.5 1.5 2 2.2 2C9 6 9 4 10 1.5z" fill="#f4900c"/><path d="M10 10c.5 2 2.6 2.8 2.6 4.8a2.6 2.6 0 0 1-5.2 0c0-1.6 1.6-2.6 2.6-4.8z" fill="${Y}"/>`,
  ),
  zap: svg(
    `<path d="M11.5 1.5 4 11.5h5L7.5 18.5 16 8h-5.2z" fill="${Y}" stroke="#c9a000" stroke-width=".6" stroke-linejoin="round"/>`,
  ),
  skull: svg(
    `<path d="M10 2a7 7 0 0 0-7 7c0 2.4 1.2 4 2.6 5v3h8.8v-3c1.4-1 2.6-2.6 2.6-5a7 7 0 0 0-7-7z" fill="#e1e8ed"/><circle cx="7.2" cy="9.5" r="1.9" fill="${K}"/><circle cx="12.8" cy="9.5" r="1.9" fill="${K}"/><path d="M8 15v2M10 15v2M12 15v2" stroke="${K}"/>`,
  ),
  '+1': svg(
    `<path d="M3 9h3v9H3zM7 9.5l3.4-6.2c.8-1.2 2.6-.6 2.3 1L12 8h4.2a1.8 1.8 0 0 1 1.7 2.3l-1.7 6A2.3 2.3 0 0 1 14 18H7z" fill="${Y}"/>`,
  ),
  '-1': svg(
    `<path d="M3 2h3v9H3zM7 10.5l3.4 6.2c.8 1.2 2.6.6 2.3-1L12 12h4.2a1.8 1.8 0 0 0 1.7-2.3l-1.7-6A2.3 2.3 0 0 0 14 2H7z" fill="${Y}"/>`,
  ),
  robot_face: svg(
    `<rect x="3" y="5.5" width="14" height="11.5" rx="3" fill="${GR}"/><circle cx="7.3" cy="10.5" r="1.7" fill="${W}"/><circle cx="12.7" cy="10.5" r="1.7" fill="${W}"/><path d="M7.5 14h5M10 5.5V3" stroke="${K}" stroke-width="1.4"/><circle cx="10" cy="2.5" r="1.2" fill="${R}"/>`,
  ),
  memo: svg(
    `<rect x="3" y="2" width="12" height="16" rx="1.5" fill="${W}" stroke="${GR}"/><path d="M5.5 6h7M5.5 9h7M5.5 12h4" stroke="${GR}" stroke-width="1.2"/><path d="m10.5 16 1-3.5L17 7l2 2-5.5 5.5z" fill="#f4a335"/>`,
  ),
  page_facing_up: svg(
    `<path d="M4 1.5h8l4 4v13H4z" fill="${W}" stroke="${GR}"/><path d="M12 1.5v4h4" fill="none" stroke="${GR}"/><path d="M6.5 9h7M6.5 12h7M6.5 15h5" stroke="${GR}" stroke-width="1.2"/>`,
  ),
  spiral_note_pad: svg(
    `<rect x="3" y="3" width="14" height="15" rx="1.5" fill="${W}" stroke="${GR}"/><path d="M6 1.5v3M10 1.5v3M14 1.5v3" stroke="${K}" stroke-width="1.4" stroke-linecap="round"/><path d="M6 9h8M6 12h8M6 15h5" stroke="${GR}" stroke-width="1.2"/>`,
  ),
  clipboard: svg(
    `<rect x="3.5" y="3" width="13" height="15.5" rx="1.5" fill="#c1694f"/><rect x="5" y="5" width="10" height="12" fill="${W}"/><rect x="7" y="1.5" width="6" height="3.5" rx="1" fill="${GR}"/>`,
  ),
  link: svg(
    `<path d="M8.5 11.5a3.2 3.2 0 0 0 4.5 0l3-3a3.2 3.2 0 0 0-4.5-4.5l-1 1M11.5 8.5a3.2 3.2 0 0 0-4.5 0l-3 3a3.2 3.2 0 0 0 4.5 4.5l1-1" fill="none" stroke="${GR}" stroke-width="2.2" stroke-linecap="round"/>`,
  ),
  gear: svg(
    `<path d="M10 1.5 12 4l3-.7.5 3 2.5 1.7-1.5 2.6 1 2.9-3 .8-.8 3-2.9-1L10 18.5l-1.8-2.2-2.9 1-.8-3-3-.8 1-2.9L1 8l2.5-1.7.5-3 3 .7z" fill="${GR}"/><circle cx="10" cy="10" r="3" fill="${W}"/>`,
  ),
  wrench: svg(
    `<path d="M14.5 2.2a4.2 4.2 0 0 0-4.7 5.6L2.5 15.1a1.7 1.7 0 0 0 2.4 2.4l7.3-7.3a4.2 4.2 0 0 0 5.6-4.7l-2.6 2.6-2.4-.6-.6-2.4z" fill="${GR}"/>`,
  ),
  bust_in_silhouette: svg(
    `<circle cx="10" cy="7" r="4" fill="#66757f"/><path d="M2.5 18.5a7.5 6 0 0 1 15 0z" fill="#66757f"/>`,
  ),
  busts_in_silhouette: svg(
    `<circle cx="13.5" cy="6.5" r="3.2" fill="${GR}"/><path d="M8 17a5.5 5 0 0 1 11 0z" fill="${GR}"/><circle cx="7.5" cy="8" r="3.6" fill="#66757f"/><path d="M1 18.5a6.5 5.5 0 0 1 13 0z" fill="#66757f"/>`,
  ),
  inbox_tray: svg(
    `<path d="M2 11h4.5l1.5 2.5h4l1.5-2.5H18v6.5H2z" fill="${GR}"/><path d="M10 2v7M7 6.5l3 3 3-3" fill="none" stroke="${B}" stroke-width="2" stroke-linecap="round"/>`,
  ),
  outbox_tray: svg(
    `<path d="M2 11h4.5l1.5 2.5h4l1.5-2.5H18v6.5H2z" fill="${GR}"/><path d="M10 9.5v-7M7 5.5l3-3 3 3" fill="none" stroke="${G}" stroke-width="2" stroke-linecap="round"/>`,
  ),
  email: svg(
    `<rect x="1.5" y="4" width="17" height="12" rx="1.5" fill="${W}" stroke="${GR}"/><path d="m2 4.8 8 6.2 8-6.2" fill="none" stroke="${GR}" stroke-width="1.3"/>`,
  ),
  globe_with_meridians: svg(
    `<circle cx="10" cy="10" r="8" fill="#5fa0e8"/><path d="M2 10h16M10 2c-3 3-3 13 0 16M10 2c3 3 3 13 0 16M3.5 5.5h13M3.5 14.5h13" fill="none" stroke="${W}" stroke-width="1"/>`,
  ),
  pushpin: svg(
    `<path d="M11.5 1.5 18.5 8.5l-2 .5-3.5 3.5.5 3.5-1.5 1.5-3.5-3.5L3 19l-1-1 5.5-5.5L4 9l1.5-1.5L9 8l3.5-3.5z" fill="${R}"/>`,
  ),
};
const ALIASES: Record<string, string> = {
  thumbsup: '+1',
  thumbsdown: '-1',
  envelope: 'email',
  date: 'calendar',
  spiral_calendar_pad: 'calendar',
  heavy_multiplication_x: 'x',
  lock_with_ink_pen: 'lock',
  closed_lock_with_key: 'lock',
  point_right: 'arrow_right',
};
for (const [alias, name] of Object.entries(ALIASES)) DRAWINGS[alias] = DRAWINGS[name] ?? '';

/** Coloured circles carry meaning (severity, health): drawn with CSS, like the emoji, with their colour named. */
const DOTS: Record<string, string> = {
  red_circle: 'red',
  large_red_circle: 'red',
  large_orange_circle: 'orange',
  large_yellow_circle: 'yellow',
  large_green_circle: 'green',
  large_blue_circle: 'blue',
  large_purple_circle: 'purple',
  white_circle: 'white',
  black_circle: 'black',
};

/** The shortcodes the page draws. @internal */
export function knownShortcodes(): string[] {
  return [...Object.keys(DRAWINGS), ...Object.keys(DOTS)];
}

/** The HTML for `:name:`, or undefined when the page does not draw it (the text then stays). */
export function emojiHtml(name: string): string | undefined {
  const dot = DOTS[name];
  if (dot) return `<span class="dot dot-${dot}" role="img" aria-label="${dot} circle"></span>`;
  if (!DRAWINGS[name]) return undefined;
  const label = name.replace(/_/g, ' ');
  return `<span class="emoji emoji-${cssName(name)}" role="img" aria-label="${label}" title=":${name}:"></span>`;
}

const cssName = (name: string) => name.replace(/\+/g, 'plus').replace(/[^a-z0-9_-]/g, '-');

/** One rule per drawing, appended to the page's stylesheet. */
export function emojiCss(): string {
  return Object.entries(DRAWINGS)
    .map(
      ([name, body]) =>
        `.emoji-${cssName(name)}{background-image:url("data:image/svg+xml,${encodeURIComponent(body)}")}`,
    )
    .join('\n');
}
