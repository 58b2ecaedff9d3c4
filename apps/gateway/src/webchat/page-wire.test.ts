import { describe, expectTypeOf, it } from "vitest";
import type { ClientFrame as PageClientFrame, ServerFrame as PageServerFrame } from "./page/wire.js";
import type { ClientFrame, ServerFrame } from "./protocol.js";

// Checked by the type checker (`pnpm typecheck`): the page and the server speak the same frames.
describe("the page's frames", () => {
  it("cover every frame the server sends", () => {
    expectTypeOf<ServerFrame>().toExtend<PageServerFrame>();
  });

  it("are frames the server reads", () => {
    expectTypeOf<PageClientFrame>().toExtend<ClientFrame>();
  });
});
