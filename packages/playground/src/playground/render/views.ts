/** Modals and the App Home tab: a view's title, blocks and buttons, as an accessible dialog or a tab panel. */
import { type BlockOptions, blocksHtml, type Json, type RenderContext } from './blocks.js';
import { escapeHtml } from './escape.js';
import { plainTextToHtml, textObjectString } from './mrkdwn.js';

/** A modal: `role="dialog"`, labelled by its title, with its own close and submit buttons. */
export function modalHtml(
  viewId: string,
  view: Json,
  ctx: RenderContext,
  options: BlockOptions = {},
): string {
  const title = textObjectString(view.title) || 'Vigil';
  const submit = textObjectString(view.submit);
  const close = textObjectString(view.close) || (submit ? 'Cancel' : 'Close');
  const titleId = `modal-title-${escapeHtml(viewId)}`;
  return (
    `<div class="modal" role="dialog" aria-modal="true" aria-labelledby="${titleId}" data-view-id="${escapeHtml(viewId)}">` +
    `<div class="modal-head"><h2 id="${titleId}">${plainTextToHtml(title)}</h2>` +
    '<button type="button" class="modal-x" data-view-close aria-label="Close">×</button></div>' +
    `<form class="modal-body" data-view-form novalidate>${blocksHtml(view.blocks, ctx, options)}</form>` +
    '<div class="modal-foot">' +
    `<button type="button" class="bk-button" data-view-close>${plainTextToHtml(close)}</button>` +
    (submit
      ? `<button type="button" class="bk-button bk-primary" data-view-submit>${plainTextToHtml(submit)}</button>`
      : '') +
    '</div></div>'
  );
}

/** The App Home tab's content. */
export function homeHtml(viewId: string, view: Json, ctx: RenderContext): string {
  return `<div class="home-view" data-view-id="${escapeHtml(viewId)}">${blocksHtml(view.blocks, ctx)}</div>`;
}
