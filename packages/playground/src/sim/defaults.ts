/**
 * What a simulator uses when it is given no clock or logger. The simulators implement the published contracts
 * on their own, so they share only the Clock and Logger shapes with Vigil, never its code.
 */
import type { Clock } from '../../../../src/kernel/clock.js';
import type { Logger } from '../../../../src/kernel/logger.js';

/** Real time, for a simulator run by hand (the playground, `npm run sim:api`); tests pass a ManualClock. */
export const wallClock: Clock = { now: () => Date.now() };

export const quietLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => quietLogger,
};
