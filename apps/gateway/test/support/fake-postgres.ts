import { createServer, type Server, type Socket } from "node:net";

/** A fake PostgreSQL server on 127.0.0.1 that refuses every login with a message `say` builds from the password it was sent. */
export interface FakePostgres {
  port: number;
  /** The passwords clients sent, in order. */
  passwords: string[];
  close(): Promise<void>;
}

/**
 * Speaks just enough of PostgreSQL's wire protocol (v3) to refuse a login: it asks for the
 * password in clear text (AuthenticationCleartextPassword), then answers the PasswordMessage with
 * a FATAL ErrorResponse (SQLSTATE 28P01, invalid_password) whose message is `say(password)` — a
 * server, or a proxy in front of one, that echoes what it was sent.
 */
export async function startFakePostgres(say: (password: string) => string): Promise<FakePostgres> {
  const passwords: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    let started = false;
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!started) {
        // StartupMessage: Int32 length (itself included), then the protocol and the parameters.
        if (buffered.length < 4 || buffered.length < buffered.readInt32BE(0)) return;
        buffered = buffered.subarray(buffered.readInt32BE(0));
        started = true;
        socket.write(message("R", int32(3)));
      }
      // PasswordMessage: 'p', Int32 length, the password and a NUL.
      if (buffered.length < 5 || buffered.length < 1 + buffered.readInt32BE(1)) return;
      const password = buffered.subarray(5, buffered.readInt32BE(1)).toString("utf8").replace(/\0$/, "");
      passwords.push(password);
      const fields = [`SFATAL`, `VFATAL`, `C28P01`, `M${say(password)}`].map((f) => Buffer.from(`${f}\0`));
      socket.end(message("E", Buffer.concat([...fields, Buffer.from([0])])));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the fake PostgreSQL server has no port");
  return {
    port: address.port,
    passwords,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

/** A backend message: its type byte, its length (itself included) and its body. */
function message(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
}
