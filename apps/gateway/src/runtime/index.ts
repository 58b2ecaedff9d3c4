// The gateway's composition root: `startGateway` lists the assemblies (state, leases, pipeline, channels, HTTP), each built in its own file.
export { type RunningGateway, type StartGatewayOptions, startGateway } from "./gateway.js";
export { openGatewayState, stateConfigOf } from "./open-state.js";
export { ensurePrivateHome } from "./private-home.js";
export { collectYoungGenerationWhenFull } from "./young-generation.js";
