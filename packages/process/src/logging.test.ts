import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { chunkedStdout, createLogger, fixedLineLogger, logFormat } from "./logging";

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

describe("fixedLineLogger", () => {
  const capture = (options: pino.LoggerOptions = {}) => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino(
      { base: { service: "agora" }, timestamp: () => ',"time":1700000000000', ...options },
      destination,
    );

    return { logger, lines };
  };
  const fields = ["request_id", "method", "route", "status", "duration_ms", "cached"] as const;
  const samples = [
    {
      request_id: "0190f0e2-8d7e-7b51-9b1a-5d0c5c1f2a3b",
      method: "GET",
      route: "/health",
      status: 200,
      duration_ms: 0.12,
      cached: true,
    },
    {
      request_id: 'quote" back\\slash \u0001 \u2028 é',
      method: "PATCH",
      route: "unmatched",
      status: 503,
      duration_ms: Number.NaN,
      cached: false,
    },
    { request_id: "x", method: "GET", route: "/", status: 0, duration_ms: -0, cached: undefined },
  ];

  it("writes the very line logger.info writes", () => {
    const fast = capture();
    const plain = capture();
    const write = fixedLineLogger(fast.logger, "request", fields);
    // The point is not to go through logger.info.
    fast.logger.info = (() => {
      throw new Error("went through logger.info");
    }) as never;
    for (const sample of samples) {
      write(sample);
      plain.logger.info(sample, "request");
    }

    expect(fast.lines).toHaveLength(samples.length);
    expect(fast.lines).toEqual(plain.lines);
  });

  it("writes nothing below the logger's level, and follows a level changed later", () => {
    const { logger, lines } = capture({ level: "warn" });
    const write = fixedLineLogger(logger, "request", fields);
    write(samples[0] as (typeof samples)[0]);
    expect(lines).toHaveLength(0);
    logger.level = "info";
    write(samples[0] as (typeof samples)[0]);
    expect(lines).toHaveLength(1);
  });

  it("leaves a logger it cannot reproduce to logger.info (here: a mixin)", () => {
    const fast = capture({ mixin: () => ({ extra: 1 }) });
    fixedLineLogger(fast.logger, "request", fields)(samples[0] as (typeof samples)[0]);

    expect(JSON.parse(fast.lines[0] ?? "{}")).toMatchObject({ extra: 1, route: "/health", msg: "request" });
  });
});
