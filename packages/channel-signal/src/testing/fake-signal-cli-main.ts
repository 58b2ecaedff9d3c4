/**
 * The fake `signal-cli` process (see `fakeSignalCli`): `[-a ACCOUNT] daemon --http HOST:PORT …`
 * runs the fake daemon on that port. Tests live in another process, so they reach its people
 * through `POST /__fake/sends`, read what the bot sent at `GET /__fake/sent`, and scan a waiting
 * link code with `POST /__fake/scan`.
 */
import { appendFileSync, readFileSync } from "node:fs";
import type { FakeCliWorld } from "./fake-cli.js";
import { FakeSignal } from "./fake-signal.js";

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const world = JSON.parse(readFileSync(process.env.FAKE_SIGNAL_CLI_WORLD ?? "", "utf8")) as FakeCliWorld;
appendFileSync(process.env.FAKE_SIGNAL_CLI_LOG ?? "/dev/null", `${JSON.stringify({ pid: process.pid, args })}\n`);

const account = flag("-a");
const http = flag("--http");
if (args[account ? 2 : 0] !== "daemon" || !http) {
  process.stderr.write(
    `fake signal-cli: only "[-a ACCOUNT] daemon --http HOST:PORT" is faked, got: ${args.join(" ")}\n`,
  );
  process.exit(1);
}
if (account && account !== world.bot.number) {
  process.stderr.write(`ERROR App - User ${account} is not registered.\n`);
  process.exit(1);
}
const port = Number(http.split(":").at(-1));
const fake = new FakeSignal({ bot: world.bot, mode: account ? "single" : "multi", linked: world.linked ?? true, port });
for (const person of world.people ?? []) fake.state.addPerson(person);

fake.server.route("POST", "/__fake/sends", (ctx) => {
  const body = ctx.json<{ from: string; text: string }>();
  const from = fake.state.person(body.from);
  if (!from) return { status: 404, json: { error: `no person ${body.from}` } };
  return { status: 200, json: fake.people.sends({ from, text: body.text }) };
});
fake.server.route("GET", "/__fake/sent", () => ({ status: 200, json: fake.state.messages }));
fake.server.route("POST", "/__fake/scan", () => {
  const [uri] = fake.linking.waiting();
  if (!uri) return { status: 404, json: { error: "no link code waits" } };
  fake.linking.scan(uri, fake.account);
  return { status: 200, json: { uri, names: fake.linking.linkedNames } };
});

await fake.start();
process.stdout.write(
  `INFO  DaemonCommand - Starting daemon in ${account ? `single-account mode for ${account}` : "multi-account mode"}\n`,
);
process.stderr.write(`INFO  HttpServerHandler - Started HTTP server on /127.0.0.1:${port}\n`);
const stop = () => {
  void fake.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
