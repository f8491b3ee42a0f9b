// The import-graph check of `pnpm lint` and .ci/run (docs/development.md): no import circle in the
// workspace's source, across packages too. Every import counts, `import type` and `import("…")`
// types included, so a circle cannot be hidden by making one of its imports type-only. Tests
// (*.test.ts, test/ folders) and generated or built code are not checked.
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "This module is part of an import circle. Break it: move the shared type to the module that owns " +
        "it or to a small *.types.ts module, split the file, or invert the dependency.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-policy-in-repositories",
      severity: "error",
      comment:
        "A repository stores and reads facts; deciding who may do what is the domain's policy, called by " +
        "the use case. Where the SQL needs a rule, it has one home: an SQL function with a domain mirror " +
        "and an agreement test (docs/architecture.md), or a state machine's table in its own module.",
      from: { path: "^packages/db/src/" },
      to: { path: "^packages/domain/src/.*\\.policy\\.ts$" },
    },
  ],
  options: {
    // Hidden files and folders (.turbo, .tools, .data, this file), dependencies, build output,
    // Prisma's generated client and the tests.
    exclude: {
      path: [
        "(^|/)\\.",
        "(^|/)node_modules/",
        "(^|/)dist/",
        "(^|/)src/generated/",
        "(^|/)test/",
        "\\.test\\.[cm]?[jt]s$",
      ],
    },
    // Packages from the registry are recorded, never read; the workspace's own (symlinked into
    // node_modules) resolve to their real path under apps/ and packages/, and are followed.
    doNotFollow: { path: "(^|/)node_modules/" },
    // Type-only imports are edges too: TypeScript's own view, before types are erased.
    tsPreCompilationDeps: true,
    detectJSDocImports: true,
    // The packages are consumed from source: their `exports` maps, under the `@agora/source`
    // condition the tsconfigs set (customConditions).
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@agora/source", "import", "require", "node", "types", "default"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".mts", ".cts", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
