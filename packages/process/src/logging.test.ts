import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { chunkedStdout, createLogger, logFormat } from "./logging";

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

describe("chunkedStdout", () => {
  it("writes lines in order, in chunks once they reach the minimum, and what is left on flush", () => {
    const chunks: string[] = [];
    const out = chunkedStdout({ write: (chunk: string) => chunks.push(chunk) }, 10);
    out.write("aaaa\n");
    expect(chunks).toEqual([]);
    out.write("bbbbb\n");
    expect(chunks).toEqual(["aaaa\nbbbbb\n"]);
    out.write("c\n");
    let flushed = false;
    out.flush(() => {
      flushed = true;
    });
    expect(flushed).toBe(true);
    out.flush();
    expect(chunks).toEqual(["aaaa\nbbbbb\n", "c\n"]);
  });

  it("drops chunks, counting their lines, while the reader has left more than the bound queued", () => {
    const chunks: string[] = [];
    const sink = { writableLength: 0, write: (chunk: string) => chunks.push(chunk) };
    const out = chunkedStdout(sink, 1, 100);
    out.write("a\n");
    sink.writableLength = 101;
    out.write("b\n");
    out.write("c\n");
    sink.writableLength = 0;
    out.write("d\n");
    expect(chunks).toEqual(["a\n", "d\n"]);
    expect(out.dropped()).toBe(2);
  });

  it("carries pino's lines whole: flushing a logger writes what it buffered", () => {
    const chunks: string[] = [];
    const out = chunkedStdout({ write: (chunk: string) => chunks.push(chunk) });
    const logger = pino({ base: null }, out);
    logger.info({ n: 1 }, "one");
    logger.info({ n: 2 }, "two");
    expect(chunks).toEqual([]);
    logger.flush();
    expect(
      chunks
        .join("")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).msg),
    ).toEqual(["one", "two"]);
  });
});
