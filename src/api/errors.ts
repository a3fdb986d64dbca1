/**
 * The API's error classes alone, for code that tells failures apart without using the client (the last-resort
 * error reply, loaded before the web server listens): importing them from index.ts would load the whole
 * client and its schemas.
 */
export { ApiError, RateLimitedError } from './core/errors.js';
