/**
 * A message's way through the gateway, in one folder, a file per step:
 *
 *   A message comes in, is committed, is decided, is answered, the answer is committed and sent.
 *
 * - receive (`receive.ts`): a channel's `ctx.emit` — the event is committed to the durable inbox
 *   (deduplicated by its id, events of one tick in one transaction) before the channel acknowledges it;
 * - schedule (`schedule.ts`): per session, in order, under the session's lock — first the replies it
 *   left unsent, then its oldest rows; the sweep after a crash or a lease taken over;
 * - decide (`decide.ts`): access, commands, group activation, context, echo, intro — what to do;
 * - handle (`handle.ts`): blocked, command, buffered, echo, or a turn run (`turn/`); what it looks up
 *   for decide first — whom a message replies to, its media — is `decide-inputs.ts`;
 * - commit (`commit.ts`): what a message leaves, with its inbox row, in one transaction;
 * - deliver (`deliver.ts`): the only place a reply — just committed, or left by a crash — is sent.
 *
 * `pipeline.ts` assembles them; `tick-batch.ts` is the one same-tick batcher of receive and commit.
 */
export { Committer, type Completion } from "./commit.js";
export { type GateDecision, MessageGate, sessionInit } from "./decide.js";
export { createDeliver, type Deliver } from "./deliver.js";
export { createHandler, type Handler } from "./handle.js";
export { createPipeline, DEDUPE_WINDOW_MS, type Pipeline, type PipelineOptions } from "./pipeline.js";
export { createReceive, type FenceOf, InboxWriter, type Receive } from "./receive.js";
export { Scheduler, type StepContext } from "./schedule.js";
export { StepCommits } from "./step-commits.js";
