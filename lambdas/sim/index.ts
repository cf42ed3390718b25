export { SimulatedWorld } from './simulated-world';
export type { Invariants } from './simulated-world';
export type { ClusterSnapshot } from './describe';
export { Scenario, Faults, Timings, loadScenarioFile, parseScenario, parseScenarioYaml } from './scenario';
export type { ScenarioInput } from './scenario';
export { INSTANCE_TYPES } from './ports/sim-lookups';
export type { WorldState } from './world-state';
