/** Block Kit's limits as Vigil's renderer keeps them (docs/ARCHITECTURE.md#slack-limits); the simulated Slack checks them on its own. */

export type Surface = 'message' | 'modal' | 'home';

export const LIMITS = {
  blocks: { message: 50, modal: 100, home: 100 } satisfies Record<Surface, number>,
  textObject: 3000,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  actionId: 255,
  blockId: 255,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  /**
   * Text in the blocks of one message. Slack's msg_blocks_too_long is undocumented: its staff describe 12,000
   * text characters "with a buffer for block containers" (slackapi/bolt-js#2509), and a 45-block message of
   * 11,341 was refused (#2867). Vigil's messages hold up to 50 blocks, so it keeps a margin below that.
   */
  blocksText: 11_000,
  /** Top-level `text`: what notifications and screen readers read. */
  topLevelText: 3000,
} as const;
