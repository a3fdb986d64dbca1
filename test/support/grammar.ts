/**
 * The whole `/vigil` grammar as the app builds it from its features, as plain functions for the tests of the
 * grammar, the help and the readings that parse through it.
 */
import { vigilGrammar } from '../../src/app/features.js';
import { readRequest as readWith } from '../../src/features/agent/read.js';
import type { Subcommand } from '../../src/slack/grammar/index.js';

export const SUBCOMMANDS = vigilGrammar.subcommands;
export const parseCommand = (text: string) => vigilGrammar.parse(text);
export const helpText = (topic?: Subcommand) => vigilGrammar.helpText(topic);
export const helpMessage = (topic?: Subcommand) => vigilGrammar.helpMessage(topic);
export const usageOf = (topic?: Subcommand) => vigilGrammar.usageOf(topic);
export const readRequest = (message: string) => readWith(vigilGrammar, message);
