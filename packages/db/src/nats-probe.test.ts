import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { natsAnswers } from "./nats-probe";

/** A TCP server on a free port that greets each connection with `greeting` (or says nothing). */
const listen = async (greeting: string | undefined): Promise<{ server: Server; url: string }> => {
  const server = createServer((socket) => {
    // The probe hangs up; this end goes with it.
    socket.on("error", () => {});
    socket.on("end", () => socket.destroy());
    if (greeting !== undefined) {
      socket.write(greeting);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return { server, url: `nats://127.0.0.1:${port}` };
};

describe("natsAnswers", () => {
  const servers: Server[] = [];
  const serve = async (greeting: string | undefined) => {
    const { server, url } = await listen(greeting);
    servers.push(server);

    return url;
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("is true for a server whose first line is NATS's INFO, the first of comma-separated URLs asked", async () => {
    const url = await serve('INFO {"server_id":"test"}\r\n');
    expect(await natsAnswers(url)).toBe(true);
    expect(await natsAnswers(`${url},nats://127.0.0.1:1`)).toBe(true);
  });

  it("is false for a server that greets otherwise, one that stays silent a second, and a closed port", async () => {
    expect(await natsAnswers(await serve("220 smtp ready\r\n"))).toBe(false);
    expect(await natsAnswers(await serve(undefined))).toBe(false);
    const { server, url } = await listen(undefined);
    await new Promise((resolve) => server.close(resolve));
    expect(await natsAnswers(url)).toBe(false);
  });
});
