#!/usr/bin/env node
// The `chorus` command's entry. Where Node has a compile cache (22.1+), it is turned on before the
// CLI loads, so every start after the first reuses V8's code for the gateway's files instead of
// compiling them again (in the OS's temp directory, or NODE_COMPILE_CACHE; Node keeps it per
// version and checks each file's content). On Node 20 the command starts as it always did.
import module from "node:module";

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./main.js");
