/**
 * The fake Acme Chat, exported on `@chorus/channel-template/testing` so the gateway's end-to-end
 * tests and other authors can run against the same platform this package's tests use.
 */
export {
  createFakeAcme,
  type DeliverOptions,
  type FakeAcme,
  type FakeAcmeOptions,
  type UserMessageInput,
} from "./fake-acme.js";
export { FakeAcmeState, type FakeReaction, type NewMessage } from "./fake-state.js";
