/**
 * The fake signal-cli daemon, exported on `@chorus/channel-signal/testing` so that end-to-end
 * tests and other authors run against the same platform this package's tests use.
 */

export { type FakeCli, type FakeCliWorld, fakeSignalCli } from "./fake-cli.js";
export {
  type DataParts,
  type FakePerson,
  jsonDataMessage,
  jsonEnvelope,
  jsonMention,
  jsonSentMessage,
} from "./fake-envelopes.js";
export { FakeEventHub } from "./fake-events.js";
export { FakeLinking } from "./fake-link.js";
export { type FakeFile, FakeMediaStore, JACKSON_MAX_STRING, shownKind } from "./fake-media.js";
export { type InjectedFailure, RpcFailure } from "./fake-rpc.js";
export { FAKE_SIGNAL_CLI_VERSION, FakeSignal, type FakeSignalOptions } from "./fake-signal.js";
export { type FakeGroup, type FakeMessage, FakeSignalState } from "./fake-state.js";
export { type Delivered, PeopleActions, type PersonMessage } from "./people.js";
