export * from "./agent/index.js";
export * from "./config/index.js";
export * from "./home.js";
export * from "./log.js";
export * from "./plugins/index.js";
export { type RunningGateway, type StartGatewayOptions, startGateway } from "./runtime/gateway.js";
export * from "./sessions/index.js";
export * from "./state/index.js";
export * from "./webchat/index.js";
