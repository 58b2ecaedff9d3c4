// A platform delivery → `ctx.emit` → whether to acknowledge it: decided here for every channel.
export {
  acknowledges,
  createReceiver,
  type Receipt,
  type Receiver,
  type ReceiverOptions,
  type Redelivery,
} from "./receiver.js";
export { webhookAnswer } from "./webhook-answer.js";
