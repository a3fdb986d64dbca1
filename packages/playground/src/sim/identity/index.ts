/** Simulated identity providers for containment: Microsoft Entra ID (token endpoint and Graph); Okta in okta-sim.ts. */
export { type SimDirectoryUser, type SimEntra, startSimEntra } from './entra-sim.js';
