import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, logFormat } from "./logging";

describe("the log format", () => {
  it("is readable only at a terminal in development; JSON lines in every other case", () => {
    const cases = [
      { isTTY: true, appEnv: "development", format: "pretty" },
      { isTTY: false, appEnv: "development", format: "json" },
      { isTTY: true, appEnv: "production", format: "json" },
      { isTTY: true, appEnv: "staging", format: "json" },
      { isTTY: true, appEnv: "test", format: "json" },
      { isTTY: false, appEnv: "production", format: "json" },
      { isTTY: true, appEnv: undefined, format: "json" },
    ] as const;

    expect(cases.map(({ isTTY, appEnv }) => logFormat({ isTTY, appEnv }))).toEqual(
      cases.map((row) => row.format),
    );
  });

  it("a logger given a destination writes JSON lines, whatever APP_ENV says", () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    createLogger({ level: "info", destination, appEnv: "development" }).info({ n: 1 }, "hello");

    expect(JSON.parse(chunks.join(""))).toMatchObject({ level: 30, msg: "hello", n: 1, service: "agora" });
  });
});
