/** This release of Vigil; package.json carries the same (a test keeps them equal). */
export const VIGIL_VERSION = '0.5.0';
