/** Simulated identity providers for containment: Microsoft Entra ID (token endpoint and Graph). */
export { type SimDirectoryUser, type SimEntra, startSimEntra } from './entra-sim.js';
export { type SimOkta, startSimOkta } from './okta-sim.js';
