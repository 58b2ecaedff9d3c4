/**
 * The fake Acme Chat, exported on `@chorus/channel-template/testing` so that end-to-end tests and
 * other authors run against the same platform this package's tests use.
 */
export { createFakeAcme, type FakeAcme, type FakeAcmeOptions, type UserMessageInput } from "./fake-acme.js";
export { ACME_UPLOAD_LIMIT, BOT_FILE_KINDS, FakeAcmeFiles } from "./fake-files.js";
export { ACME_REACTION_NAMES, FakeAcmeState, type FakeReaction, type NewMessage } from "./fake-state.js";
export { ACME_RETRY_DELAYS_MS, FakeAcmeWebhooks, type PostedDelivery, type PostOptions } from "./fake-webhooks.js";
