/** Simulated identity providers for containment: Microsoft Entra ID (token endpoint and Graph). */
export { DEFAULT_ENTRA_ROLES, type SimDirectoryUser, type SimEntra, startSimEntra } from './entra-sim.js';
