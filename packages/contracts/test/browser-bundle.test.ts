import { builtinModules } from "node:module";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Records every import of a Node built-in (`node:fs`, `fs`, …) and marks it external, so all are listed. */
const builtinSpy = (found: string[]): Plugin => ({
  name: "builtin-spy",
  setup(buildApi) {
    buildApi.onResolve({ filter: /.*/ }, (args) => {
      if (args.path.startsWith("node:") || builtins.has(args.path)) {
        found.push(`${args.path} (from ${args.importer})`);

        return { path: args.path, external: true };
      }

      return undefined;
    });
  },
});

/** Bundles `source` for the browser the way an app's bundler would; returns the Node built-ins it needed. */
const bundleForBrowser = async (source: string) => {
  const found: string[] = [];
  const result = await build({
    stdin: { contents: source, resolveDir: import.meta.dirname, loader: "ts" },
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    conditions: ["@agora/source"],
    logLevel: "silent",
    plugins: [builtinSpy(found)],
  });

  return { found, bytes: result.outputFiles.reduce((sum, file) => sum + file.contents.length, 0) };
};

const subpaths = Object.keys(packageJson.exports)
  .filter((subpath) => subpath !== "./package.json")
  .map((subpath) => `@agora/contracts/${subpath.slice(2)}`);

describe("@agora/contracts in a browser bundle", () => {
  it("bundles every subpath (areas, client, admin client, realtime) for the browser without a Node built-in", async () => {
    expect(subpaths).toEqual(
      expect.arrayContaining(["@agora/contracts/client", "@agora/contracts/realtime"]),
    );
    const source = subpaths.map((subpath, index) => `export * as m${index} from "${subpath}";`).join("\n");

    const { found, bytes } = await bundleForBrowser(source);

    expect(found).toEqual([]);
    expect(bytes).toBeGreaterThan(10_000);
  });

  it("the member client's bundle holds no admin route", async () => {
    const found: string[] = [];
    const result = await build({
      stdin: {
        contents: `import { createAgoraClient } from "@agora/contracts/client"; console.log(createAgoraClient);`,
        resolveDir: import.meta.dirname,
        loader: "ts",
      },
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      conditions: ["@agora/source"],
      logLevel: "silent",
      plugins: [builtinSpy(found)],
    });
    const text = result.outputFiles.map((file) => file.text).join("\n");

    expect(found).toEqual([]);
    expect(text).toContain('"/api/v1/listings"');
    expect(text).not.toContain("/admin/");
  });

  it("reports a module that needs a Node built-in (the check can fail)", async () => {
    const { found } = await bundleForBrowser(
      `import { readFileSync } from "node:fs"; console.log(readFileSync);`,
    );

    expect(found).toEqual([expect.stringMatching(/^node:fs /)]);
  });
});
