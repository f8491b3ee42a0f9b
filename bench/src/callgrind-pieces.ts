// Where a request's instructions go: Callgrind's count per request (callgrind.ts's bursts) of the
// built API and of variants of it, each with one piece of the request path taken out.
//
//   pnpm bench:pieces                    every variant (GET /health and GET /listings/{id})
//   CALLGRIND_PIECES=access-log,metrics  only these variants (and the API as built)
//
// A variant is a copy of apps/api/dist (under apps/api/dist/pieces/, rebuilt by each run) with one
// textual edit to the bundle; an edit that no longer finds its text fails the run instead of
// measuring the unedited API. The difference between the API's count and a variant's is what the
// piece costs per request. The interpreter-only counts make JavaScript look dearer than it is under
// the JIT (see docs/performance.md): read each piece as a share of the request, beside the reference.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureCallgrind } from "./callgrind.ts";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const dist = path.join(repo, "apps/api/dist");
const piecesDirectory = path.join(dist, "pieces");

type Edit = { find: string; replace: string };
type Piece = { name: string; what: string; edits: Edit[] };

/** The envelope of GET /health as respond() builds it (same headers, same body). */
const healthResponse =
  'new Response(JSON.stringify({ success: true, data: { status: "ok" }, meta: null, error: null, request_id: requestId }), { status: 200, headers: { ...jsonHeaders, "x-request-id": requestId } })';

const PIECES: Piece[] = [
  {
    name: "wrapper",
    what: "the whole per-request wrapper (request id kept): timing, route label, histogram, access log, finish",
    edits: [
      {
        find: "  const handle2 = (request, bindings, span) => {\n",
        replace:
          "  const handle2 = (request, bindings, span) => {\n    if (bindings) return app.fetch(request, { ...bindings, requestId: randomUUID(), rootLogger: logger });\n",
      },
    ],
  },
  {
    name: "access-log",
    what: "the access log line (pino: serialize, buffer)",
    edits: [{ find: "accessLog(line);", replace: "void line;" }],
  },
  {
    name: "metrics",
    what: "the duration histogram's observe",
    edits: [{ find: "observer(method, entry, status).observe(seconds);", replace: "" }],
  },
  {
    name: "route-label",
    what: "the route template of the metrics and the log (path split, cache lookup)",
    edits: [
      {
        find: "const entry = known(method, pathOf());",
        // The first request's entry for every request: no path split, no lookup (labels wrong, costs right).
        replace: "const entry = globalThis.__entry ??= known(method, pathOf());",
      },
    ],
  },
  {
    name: "timing",
    what: "the two performance.now() and the duration's arithmetic",
    edits: [
      {
        find: "const started = performance.now();\n    const incoming = bindings?.incoming;",
        replace: "const started = 0;\n    const incoming = bindings?.incoming;",
      },
      { find: "const seconds = (performance.now() - started) / 1e3;", replace: "const seconds = 0.001;" },
    ],
  },
  {
    name: "request-id",
    what: "the request id (header lookup, check, randomUUID)",
    edits: [
      {
        find: 'const requestId = typeof offered === "string" && acceptableRequestId.test(offered) ? offered : randomUUID();',
        replace: 'const requestId = "00000000-0000-4000-8000-000000000000";',
      },
    ],
  },
  {
    name: "security-headers",
    what: "the seven security headers (HSTS, nosniff, frame, referrer, COOP, CORP, no-store)",
    edits: [{ find: "  ...Object.fromEntries(securityHeaders),\n", replace: "" }],
  },
  {
    name: "hono",
    what: "Hono for GET /health: dispatch, routing, context, handler, envelope (the same response built directly)",
    edits: [
      {
        find: "const result = app.fetch(request, {",
        replace: `const result = incoming?.url === "/health" ? ${healthResponse} : app.fetch(request, {`,
      },
      // respond()'s marker, so finish() treats the direct response as respond()'s.
      {
        find: "    return result instanceof Promise ? result.then(finish) : finish(result);",
        replace:
          "    if (!(result instanceof Promise)) result[COMPLETE] = true;\n    return result instanceof Promise ? result.then(finish) : finish(result);",
      },
    ],
  },
  {
    name: "param-validation",
    what: "GET /listings/{id}'s path parameter validation (zod-openapi's validator middleware; the handler reads the raw parameter)",
    edits: [
      {
        find: "    ...operation.params ? { params: operation.params } : {},",
        replace:
          '    ...operation.params && operation.operationId !== "listingsGet" ? { params: operation.params } : {},',
      },
      {
        find: 'const found = await getPublicListing(marketplace, c.req.valid("param").id);',
        replace: 'const found = await getPublicListing(marketplace, c.req.param("id"));',
      },
    ],
  },
  {
    name: "adapter-only",
    what: "everything but the Node adapter: the handler answers GET /health's envelope (content-type only) at once",
    edits: [
      {
        find: "  const handle2 = (request, bindings, span) => {\n",
        replace:
          '  const handle2 = (request, bindings, span) => {\n    if (bindings?.incoming?.url === "/health") return new Response(JSON.stringify({ success: true, data: { status: "ok" }, meta: null, error: null, request_id: randomUUID() }), { status: 200, headers: { "content-type": "application/json" } });\n',
      },
    ],
  },
];

/** A copy of dist with `piece`'s edits; returns its entry. */
const buildVariant = (piece: Piece): string => {
  const directory = path.join(piecesDirectory, piece.name);
  for (const name of readdirSync(dist)) {
    if (name !== "pieces" && !name.endsWith(".map")) {
      cpSync(path.join(dist, name), path.join(directory, name), { recursive: true });
    }
  }
  const files = readdirSync(directory).filter((name) => name.endsWith(".js"));
  for (const edit of piece.edits) {
    const holders = files.filter((name) =>
      readFileSync(path.join(directory, name), "utf8").includes(edit.find),
    );
    const [holder] = holders;
    if (holders.length !== 1 || holder === undefined) {
      throw new Error(
        `${piece.name}: the text to edit is in ${holders.length} files of apps/api/dist: ${edit.find}`,
      );
    }
    const file = path.join(directory, holder);
    const text = readFileSync(file, "utf8");
    if (text.indexOf(edit.find) !== text.lastIndexOf(edit.find)) {
      throw new Error(`${piece.name}: the text to edit is there more than once: ${edit.find}`);
    }
    writeFileSync(
      file,
      text.replace(edit.find, () => edit.replace),
    );
  }

  return path.relative(repo, path.join(directory, "main.js"));
};

const main = async () => {
  if (!existsSync(path.join(dist, "main.js"))) {
    throw new Error("apps/api/dist is missing: build the API first (pnpm bench:pieces does)");
  }
  const chosen = process.env.CALLGRIND_PIECES?.split(",").map((name) => name.trim());
  const pieces = chosen ? PIECES.filter((piece) => chosen.includes(piece.name)) : PIECES;
  rmSync(piecesDirectory, { recursive: true, force: true });
  const variants = [
    { name: "as built", what: "", api: "apps/api/dist/main.js" },
    ...pieces.map((piece) => ({ ...piece, api: buildVariant(piece) })),
  ];
  process.env.CALLGRIND_ONLY ??= "health|listings";
  // Two at a time: each is a valgrind process of its own, counted whatever else runs.
  const results: Array<Awaited<ReturnType<typeof measureCallgrind>>> = [];
  for (let i = 0; i < variants.length; i += 2) {
    const pair = variants.slice(i, i + 2);
    results.push(
      ...(await Promise.all(
        pair.map((variant) =>
          measureCallgrind({
            adminUrl: process.env.BENCH_DATABASE_URL,
            requests: process.env.CALLGRIND_REQUESTS ? Number(process.env.CALLGRIND_REQUESTS) : undefined,
            api: variant.api,
            reference: i === 0 && variant.name === "as built",
            log: (line) => process.stderr.write(`  ${variant.name}: ${line}\n`),
          }),
        ),
      )),
    );
  }
  rmSync(piecesDirectory, { recursive: true, force: true });
  const [built] = results;
  if (!built) {
    return;
  }
  const lines = variants.map((variant, index) => {
    const counts: Record<string, number> = results[index]?.agora ?? {};
    const cells = Object.entries(counts).map(([endpoint, count]) => {
      const whole = built.agora[endpoint as keyof typeof built.agora];

      return index === 0
        ? `${endpoint} ${count.toLocaleString("en-US")} (reference ${built.reference[endpoint as keyof typeof built.reference]?.toLocaleString("en-US")})`
        : `${endpoint} ${(whole - count).toLocaleString("en-US")}`;
    });

    return `${variant.name.padEnd(18)} ${cells.join("  ")}${variant.what ? `  — ${variant.what}` : ""}`;
  });
  process.stdout.write(
    `\ninstructions per request (as built), and what each piece costs (as built − without it):\n${lines.join("\n")}\n`,
  );
};

await main();
