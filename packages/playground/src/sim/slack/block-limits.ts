/**
 * What the simulated Slack refuses in a message or a view, the way Slack refuses it: each problem is reported
 * as "<problem> [json-pointer:/path]" (Slack's own wording where it is known), so a failing test names the exact
 * field. The per-block and per-element rules live in block-kit/, each citing its Block Kit reference page.
 */
import { blockListProblems } from './block-kit/blocks.js';
import { isRecord, Problems } from './block-kit/check.js';
import { textObject } from './block-kit/composition.js';

/** "You can include up to 50 blocks in each message, and 100 blocks in modals or Home tabs." */
export const MESSAGE_MAX_BLOCKS = 50;
const VIEW_MAX_BLOCKS = 100;
/**
 * Slack answers msg_blocks_too_long when the text in a message's blocks passes a threshold it does not
 * document: about 13,200 characters in https://github.com/slackapi/bolt-js/issues/2509 ("12,000 text characters
 * with a buffer for block containers", said Slack there), and a 45-block message of 11,341 was refused in
 * slackapi/bolt-js#2867. The fake counts every `text` string in the blocks and holds them to Slack's 12,000.
 */
export const MESSAGE_MAX_BLOCK_TEXT = 12_000;
/**
 * The top-level `text` "accepts up to 40,000 characters"
 * (https://api.slack.com/changelog/2018-04-truncating-really-long-messages); chat.postMessage documents
 * msg_too_long for longer text.
 */
export const MESSAGE_MAX_TEXT = 40_000;

/** Problems with a list of blocks at `pointer`, `maxBlocks` being 50 (message) or 100 (modal, Home). */
export function blockProblems(blocks: unknown, maxBlocks: number, pointer: string): string[] {
  return blockListProblems(blocks, maxBlocks, pointer);
}

/** Sum of the lengths of every `text` string inside the blocks: what msg_blocks_too_long measures. */
export function blockTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + blockTextLength(v), 0);
  if (!isRecord(value)) return 0;
  let n = 0;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'text' && typeof v === 'string') n += v.length;
    else n += blockTextLength(v);
  }
  return n;
}

/**
 * The fake's one rule stricter than Slack: a message with blocks must carry a non-empty top-level `text`.
 * Slack posts such a message but then notifications and screen readers have nothing to read ("the `text` is
 * used in places where the content cannot be rendered": https://docs.slack.dev/reference/methods/chat.postMessage),
 * and every Vigil message has a meaningful one (docs/ARCHITECTURE.md#slack-limits). Refused as no_text so a test fails.
 */
export const TEXT_WITH_BLOCKS_PROBLEM =
  'a message with blocks needs a non-empty top-level text (a rule of this fake: Slack itself only recommends it, for notifications and screen readers) [json-pointer:/text]';

/** Fields of a modal view: https://docs.slack.dev/reference/views/modal-views */
const MODAL_FIELDS = [
  'type',
  'title',
  'blocks',
  'close',
  'submit',
  'private_metadata',
  'callback_id',
  'clear_on_close',
  'notify_on_close',
  'external_id',
  'submit_disabled',
];
/** Fields of a Home view: https://docs.slack.dev/reference/views/home-tab-views */
const HOME_FIELDS = ['type', 'blocks', 'private_metadata', 'callback_id', 'external_id'];

/**
 * Problems with a modal or Home view, reported by Slack as invalid_arguments.
 * https://docs.slack.dev/reference/views/modal-views: title (required, plain_text ≤ 24), blocks (≤ 100), close
 * and submit (plain_text ≤ 24; "submit is required when an input block is within the blocks array"),
 * private_metadata ≤ 3000, callback_id ≤ 255. external_id has no documented length ("a custom identifier that
 * must be unique for all views on a per-team basis"): the fake holds it to callback_id's 255.
 */
export function viewProblems(view: unknown): string[] {
  const p = new Problems();
  if (!isRecord(view)) {
    p.add('must be an object', '/view');
    return p.list;
  }
  p.oneOf(view.type, ['modal', 'home'], '/view/type', true);
  if (view.type === 'modal') {
    textObject(p, view.title, '/view/title', 24, 'plain_text');
    textObject(p, view.submit, '/view/submit', 24, 'plain_text', false);
    textObject(p, view.close, '/view/close', 24, 'plain_text', false);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isRecord(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      p.add('submit is required when an input block is within the blocks', '/view');
    }
    p.boolean(view.clear_on_close, '/view/clear_on_close');
    p.boolean(view.notify_on_close, '/view/notify_on_close');
    p.unknownFields(view, MODAL_FIELDS, '/view');
  } else if (view.type === 'home') {
    p.unknownFields(view, HOME_FIELDS, '/view');
  }
  p.string(view.private_metadata, '/view/private_metadata', 3000);
  p.string(view.callback_id, '/view/callback_id', 255);
  p.string(view.external_id, '/view/external_id', 255);
  if (view.blocks === undefined) p.missing('/view/blocks');
  return [...p.list, ...blockListProblems(view.blocks ?? [], VIEW_MAX_BLOCKS, '/view/blocks')];
}
