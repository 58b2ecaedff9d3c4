// The testkit's memory channel taking media of up to 64 MB both ways, packaged as a plugin (loaded
// through plugins.load) for the media benchmark: a 40 MB file in and out of the gateway.
import { createMemoryChannel } from "@chorus/testkit";

const MB = 1024 * 1024;

export default createMemoryChannel({
  id: "largemedia",
  label: "Large Media",
  media: { maxSendBytes: 64 * MB, maxReceiveBytes: 64 * MB },
});
